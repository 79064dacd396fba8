import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { nameKey, phoneKey } from '../../lib/sort-key.ts';

/*
 * Sort and search keys next to the names (lib/sort-key.ts: German phone-book order, search without case and
 * accents), filled here for the rows that exist; from now on db/sort-key-plugin.ts keeps them on every write.
 * On PostgreSQL the key columns compare byte-wise (COLLATE "C"), as SQLite does: a database made with a
 * language collation (en_US.UTF-8 skips spaces and hyphens when sorting) still sorts exactly like SQLite.
 */
// The columns as this migration made them (lib/sort-key.ts KEYED_COLUMNS may grow later, with a migration of its own).
const KEYED: Record<string, Record<string, { column: string; key: (text: string) => string }>> = {
  patients: {
    firstName: { column: 'firstNameKey', key: nameKey },
    lastName: { column: 'lastNameKey', key: nameKey },
    phone: { column: 'phoneKey', key: phoneKey },
  },
  coaches: { firstName: { column: 'firstNameKey', key: nameKey }, lastName: { column: 'lastNameKey', key: nameKey } },
};

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const [table, columns] of Object.entries(KEYED)) {
    for (const keyed of Object.values(columns)) {
      await db.schema
        .alterTable(table)
        .addColumn(keyed.column, 'text', (c) => (postgres ? c.modifyEnd(sql`collate "C"`) : c))
        .execute();
    }
    const sources = Object.keys(columns);
    const rows = await db
      .selectFrom(table)
      .select(['id', ...sources])
      .execute();
    for (const row of rows) {
      const keys = Object.fromEntries(
        Object.entries(columns).map(([field, keyed]) => [keyed.column, typeof row[field] === 'string' ? keyed.key(row[field]) : null]),
      );
      await db.updateTable(table).set(keys).where('id', '=', row.id).execute();
    }
  }
  // The patient list's default order (last name, first name, id) from an index, now on the keys.
  await db.schema.createIndex('patients_name_key_order').on('patients').columns(['lastNameKey', 'firstNameKey', 'id']).execute();
  await db.schema.dropIndex('patients_name_order').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('patients_name_order').on('patients').columns(['lastName', 'firstName', 'id']).execute();
  await db.schema.dropIndex('patients_name_key_order').execute();
  for (const [table, columns] of Object.entries(KEYED)) {
    for (const keyed of Object.values(columns)) await db.schema.alterTable(table).dropColumn(keyed.column).execute();
  }
}

import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { codeKey, spelledKey } from '../../lib/sort-key.ts';

/*
 * Search keys that spell umlauts out ("Müller" as "mueller", found by "mueller" and "müller") and the patient
 * code without its separators ("NK-4821" as "nk4821", found by "nk4821", "nk 4821" and "NK-4821"): filled here
 * for the rows that exist; from now on db/sort-key-plugin.ts keeps them on every write. Byte-wise on PostgreSQL,
 * as the keys of migration 106.
 */
// The columns as this migration made them (lib/sort-key.ts KEYED_COLUMNS may grow later, with a migration of its own).
const KEYED: { source: string; column: string; key: (text: string) => string }[] = [
  { source: 'firstName', column: 'firstNameSpelledKey', key: spelledKey },
  { source: 'lastName', column: 'lastNameSpelledKey', key: spelledKey },
  { source: 'patientCode', column: 'patientCodeKey', key: codeKey },
];

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const keyed of KEYED) {
    await db.schema
      .alterTable('patients')
      .addColumn(keyed.column, 'text', (c) => (postgres ? c.modifyEnd(sql`collate "C"`) : c))
      .execute();
  }
  const rows = await db
    .selectFrom('patients')
    .select(['id', ...KEYED.map((k) => k.source)])
    .execute();
  for (const row of rows) {
    const keys = Object.fromEntries(KEYED.map((k) => [k.column, typeof row[k.source] === 'string' ? k.key(row[k.source]) : null]));
    await db.updateTable('patients').set(keys).where('id', '=', row.id).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const keyed of KEYED) await db.schema.alterTable('patients').dropColumn(keyed.column).execute();
}

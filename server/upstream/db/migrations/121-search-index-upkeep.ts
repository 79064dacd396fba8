import { type Kysely, PostgresAdapter, sql } from 'kysely';

/*
 * PostgreSQL: the name, code and phone trigram indexes (migration 113) take each write at once instead of into
 * GIN's pending list. With the pending list (GIN's default) new rows wait there, unsorted, until VACUUM or an
 * autovacuum analyse merges them, and every search reads the whole list: after loading 100,000 patients a name
 * search took 60 ms instead of 6 until the next vacuum, and the planner, costing the slow index, read the whole
 * table instead. Patients are written rarely and searched all day; a write costs a little more. The rows already
 * pending are merged here.
 */
const TRIGRAM_INDEXES = ['lastNameKey', 'firstNameKey', 'lastNameSpelledKey', 'firstNameSpelledKey', 'patientCodeKey', 'phoneKey'].map(
  (column) => `patients_${column}_trgm`,
);

/** The trigram indexes this database has (none when pg_trgm could not be installed, see migration 113). */
async function present(db: Kysely<any>): Promise<string[]> {
  const found: string[] = [];
  for (const name of TRIGRAM_INDEXES) {
    const row = await sql<{ found: string | null }>`select to_regclass(${sql.lit(`"${name}"`)})::text as found`.execute(db);
    if (row.rows[0]?.found) found.push(name);
  }
  return found;
}

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const name of await present(db)) {
    await sql`alter index ${sql.id(name)} set (fastupdate = off)`.execute(db);
    await sql`select gin_clean_pending_list(${sql.lit(`"${name}"`)}::regclass)`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const name of await present(db)) await sql`alter index ${sql.id(name)} set (fastupdate = on)`.execute(db);
}

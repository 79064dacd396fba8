import { type Kysely, PostgresAdapter, sql } from 'kysely';

/*
 * The patients by the length of their aftercare (end minus start, in days): the statistics detail table sorted by
 * days in aftercare takes the patients whose whole aftercare lies within the period from here, shortest (or longest)
 * first, instead of reading every patient who started in the period (features/statistics/split-orders.ts).
 * PostgreSQL indexes only an expression it may call immutable, and a cast of text to a date is not (it reads
 * DateStyle); the dates are stored as 'YYYY-MM-DD', which reads the same under every DateStyle, so a function
 * that does that cast is declared immutable. SQLite's julianday of a stored date is deterministic.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create function aftercare_days(start text, "end" text) returns integer language sql immutable parallel safe
      return "end"::date - start::date`.execute(db);
    await sql`create index patients_aftercare_length on patients
      (aftercare_days("aftercareStart", "aftercareEnd"), "statisticsRowId", "aftercareStart", "aftercareEnd")`.execute(db);
    return;
  }
  await sql`create index patients_aftercare_length on patients
    ((julianday("aftercareEnd") - julianday("aftercareStart")), "statisticsRowId", "aftercareStart", "aftercareEnd")`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('patients_aftercare_length').execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`drop function aftercare_days(text, text)`.execute(db);
}

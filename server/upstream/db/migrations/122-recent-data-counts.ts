import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * The summary's "active without data for 7 days" without reading the patients that sent data recently.
 *
 * A patient counts as active with recent data on day d when d is in their aftercare and their last data is from the
 * Berlin day d - 7 or later: for each patient with data, the days from aftercareStart to the earlier of aftercareEnd
 * and (Berlin day of lastDataAt) + 7. That is one interval per patient, counted per day exactly as
 * aftercare_day_counts counts the aftercare intervals (migration 120): recent_data_day_counts holds, per scope ('*'
 * and 'coach:<id>') and day, how many of these intervals start and end on it, kept by triggers on every write to a
 * patient. The number on a day is then a sum over a few rows per day, as for the other figures. Without it the count
 * read every patient with data in the last week, a share of the table that grows with it (x4.4 from 10,000 to
 * 100,000 patients on SQLite). Migration 120's index patients_last_data stays: the dashboard's counts of patients by
 * the age of their data read it (dropped, an administrator's count went from 1 to 6 ms at 100,000 on PostgreSQL).
 *
 * The Berlin day is computed in SQL: PostgreSQL converts with its time zone data; SQLite has none, so the expression
 * applies the EU rule (summer time from the last Sunday of March to the last Sunday of October, 01:00 UTC), which
 * Berlin has followed since 1996. test/server/upstream/statistics-at-size.test.ts compares it with lib/days.ts.
 */

const TABLE = 'recent_data_day_counts';

/** SQLite: the Berlin day after which a patient's data counts as old, as 'YYYY-MM-DD', from the row's lastDataAt. */
function sqliteRecentUntil(row: string): string {
  const utc = `strftime('%Y-%m-%dT%H:%M:%S', ${row}.lastDataAt)`;
  const switchDay = (month: string) => `date(substr(${utc}, 1, 4) || '-${month}-31', '-6 days', 'weekday 0') || 'T01:00:00'`;
  const summer = `${utc} >= ${switchDay('03')} AND ${utc} < ${switchDay('10')}`;
  return `date(${utc}, CASE WHEN ${summer} THEN '+2 hours' ELSE '+1 hours' END, '+7 days')`;
}

/** SQLite: the interval's end day (NULL without data). */
const sqliteEnd = (row: string) => `min(${row}.aftercareEnd, ${sqliteRecentUntil(row)})`;

async function sqliteTriggers(db: Kysely<any>): Promise<void> {
  const upsert = (scope: string, day: string, starts: string, ends: string, when: string) =>
    `INSERT INTO ${TABLE} (scope, day, starts, ends) SELECT ${scope}, ${day}, ${starts}, ${ends} WHERE ${when}
       ON CONFLICT (scope, day) DO UPDATE SET starts = starts + excluded.starts, ends = ends + excluded.ends;`;
  const add = (row: 'NEW' | 'OLD', sign: 1 | -1) => {
    const counted = `${row}.lastDataAt IS NOT NULL AND ${row}.aftercareStart <= ${sqliteEnd(row)}`;
    const withCoach = `${counted} AND ${row}.primaryCoachId IS NOT NULL`;
    const coach = `'coach:' || ${row}.primaryCoachId`;
    return [
      upsert(`'*'`, `${row}.aftercareStart`, `${sign}`, '0', counted),
      upsert(`'*'`, sqliteEnd(row), '0', `${sign}`, counted),
      upsert(coach, `${row}.aftercareStart`, `${sign}`, '0', withCoach),
      upsert(coach, sqliteEnd(row), '0', `${sign}`, withCoach),
    ].join('\n');
  };
  // A sync moves lastDataAt many times a day; the counts change only when the interval's end day does.
  const changed = `OLD.aftercareStart IS NOT NEW.aftercareStart OR OLD.primaryCoachId IS NOT NEW.primaryCoachId
    OR ${sqliteEnd('OLD')} IS NOT ${sqliteEnd('NEW')}`;
  await sql.raw(`CREATE TRIGGER patients_recent_data_counts_insert AFTER INSERT ON patients BEGIN ${add('NEW', 1)} END`).execute(db);
  await sql.raw(`CREATE TRIGGER patients_recent_data_counts_delete AFTER DELETE ON patients BEGIN ${add('OLD', -1)} END`).execute(db);
  await sql
    .raw(
      `CREATE TRIGGER patients_recent_data_counts_update AFTER UPDATE OF aftercareStart, aftercareEnd, primaryCoachId, lastDataAt
       ON patients WHEN ${changed} BEGIN ${add('OLD', -1)} ${add('NEW', 1)} END`,
    )
    .execute(db);
}

/** PostgreSQL: each counted row of `table` as (start, end, coach). */
const postgresIntervals = (table: string) => `SELECT "aftercareStart" AS s, e, "primaryCoachId" AS c FROM (
    SELECT *, LEAST("aftercareEnd", to_char((("lastDataAt")::timestamptz AT TIME ZONE 'Europe/Berlin')::date + 7, 'YYYY-MM-DD')) AS e
    FROM ${table} WHERE "lastDataAt" IS NOT NULL) AS r WHERE "aftercareStart" <= e`;

/** PostgreSQL: the count changes of the rows in a transition table, +1 (or -1) at the start and the end day, per scope. */
function postgresChanges(table: string, sign: 1 | -1): string {
  const at = (day: 's' | 'e', starts: number, ends: number) =>
    `SELECT '*' AS scope, ${day} AS day, ${starts} AS starts, ${ends} AS ends FROM (${postgresIntervals(table)}) AS i
     UNION ALL SELECT 'coach:' || c, ${day}, ${starts}, ${ends} FROM (${postgresIntervals(table)}) AS i WHERE c IS NOT NULL`;
  return `${at('s', sign, 0)} UNION ALL ${at('e', 0, sign)}`;
}

async function postgresTriggers(db: Kysely<any>): Promise<void> {
  // As migration 120: once per statement, rows locked in (scope, day) order, nothing written when nothing changes.
  // PostgreSQL allows transition tables only on triggers without a column list, so every update of a patient runs
  // it; one that leaves the intervals as they were writes nothing.
  const apply = (changes: string) => `INSERT INTO ${TABLE} (scope, day, starts, ends)
    SELECT scope, day, sum(starts), sum(ends) FROM (${changes}) AS c GROUP BY scope, day
    HAVING sum(starts) <> 0 OR sum(ends) <> 0 ORDER BY scope, day
    ON CONFLICT (scope, day) DO UPDATE SET starts = ${TABLE}.starts + excluded.starts, ends = ${TABLE}.ends + excluded.ends`;
  const events: Record<string, { referencing: string; changes: string }> = {
    insert: { referencing: 'NEW TABLE AS new_rows', changes: postgresChanges('new_rows', 1) },
    delete: { referencing: 'OLD TABLE AS old_rows', changes: postgresChanges('old_rows', -1) },
    update: {
      referencing: 'OLD TABLE AS old_rows NEW TABLE AS new_rows',
      changes: `${postgresChanges('old_rows', -1)} UNION ALL ${postgresChanges('new_rows', 1)}`,
    },
  };
  for (const [event, { referencing, changes }] of Object.entries(events)) {
    await sql
      .raw(`CREATE FUNCTION patients_recent_data_counts_${event}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN ${apply(changes)}; RETURN NULL; END $$`)
      .execute(db);
    await sql
      .raw(`CREATE TRIGGER patients_recent_data_counts_${event} AFTER ${event.toUpperCase()} ON patients REFERENCING ${referencing}
        FOR EACH STATEMENT EXECUTE FUNCTION patients_recent_data_counts_${event}()`)
      .execute(db);
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable(TABLE)
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('starts', 'integer', (c) => c.notNull())
    .addColumn('ends', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint(`${TABLE}_pk`, ['scope', 'day'])
    .execute();
  if (postgres) {
    await sql
      .raw(`INSERT INTO ${TABLE} (scope, day, starts, ends)
      SELECT scope, day, sum(starts), sum(ends) FROM (${postgresChanges('patients', 1)}) AS c GROUP BY scope, day`)
      .execute(db);
    await postgresTriggers(db);
  } else {
    const existing = `SELECT aftercareStart AS s, ${sqliteEnd('p')} AS e, primaryCoachId AS c FROM patients AS p
      WHERE p.lastDataAt IS NOT NULL AND p.aftercareStart <= ${sqliteEnd('p')}`;
    await sql
      .raw(`INSERT INTO ${TABLE} (scope, day, starts, ends)
      SELECT scope, day, sum(starts), sum(ends) FROM (
        SELECT '*' AS scope, s AS day, 1 AS starts, 0 AS ends FROM (${existing})
        UNION ALL SELECT '*', e, 0, 1 FROM (${existing})
        UNION ALL SELECT 'coach:' || c, s, 1, 0 FROM (${existing}) WHERE c IS NOT NULL
        UNION ALL SELECT 'coach:' || c, e, 0, 1 FROM (${existing}) WHERE c IS NOT NULL)
      GROUP BY scope, day`)
      .execute(db);
    await sqliteTriggers(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const event of ['insert', 'delete', 'update']) {
    if (postgres) {
      await sql.raw(`DROP TRIGGER patients_recent_data_counts_${event} ON patients`).execute(db);
      await sql.raw(`DROP FUNCTION patients_recent_data_counts_${event}()`).execute(db);
    } else {
      await sql.raw(`DROP TRIGGER patients_recent_data_counts_${event}`).execute(db);
    }
  }
  await db.schema.dropTable(TABLE).execute();
}

import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * Statistics whose cost does not grow with the patient table:
 * - aftercare_day_counts: per day, how many aftercare intervals start and end on it, for all patients (scope '*')
 *   and per primary coach (scope 'coach:<id>'). Triggers keep it on every insert, delete and change of a patient,
 *   whichever write path made it, so the summary, the daily series and the detail table's row count add up a few
 *   rows per day instead of reading every patient.
 * - patients.statisticsRowId: the detail table's pseudonym (an HMAC, features/statistics/row-ids.ts), stored so the
 *   database can order and page by it; filled by the statistics calls for rows that have none yet.
 * - indexes that give the detail table's name order, with the aftercare columns in them so the period filter is
 *   checked without reading the rows.
 */

const COLUMNS = ['aftercareStart', 'aftercareEnd', 'primaryCoachId'] as const;

async function sqliteTriggers(db: Kysely<any>): Promise<void> {
  // One upsert per changed count; excluded carries +1 or -1.
  const add = (row: 'NEW' | 'OLD', sign: 1 | -1) =>
    [
      `INSERT INTO aftercare_day_counts (scope, day, starts, ends) SELECT '*', ${row}.aftercareStart, ${sign}, 0 WHERE true
         ON CONFLICT (scope, day) DO UPDATE SET starts = starts + excluded.starts;`,
      `INSERT INTO aftercare_day_counts (scope, day, starts, ends) SELECT '*', ${row}.aftercareEnd, 0, ${sign} WHERE true
         ON CONFLICT (scope, day) DO UPDATE SET ends = ends + excluded.ends;`,
      `INSERT INTO aftercare_day_counts (scope, day, starts, ends) SELECT 'coach:' || ${row}.primaryCoachId, ${row}.aftercareStart, ${sign}, 0
         WHERE ${row}.primaryCoachId IS NOT NULL ON CONFLICT (scope, day) DO UPDATE SET starts = starts + excluded.starts;`,
      `INSERT INTO aftercare_day_counts (scope, day, starts, ends) SELECT 'coach:' || ${row}.primaryCoachId, ${row}.aftercareEnd, 0, ${sign}
         WHERE ${row}.primaryCoachId IS NOT NULL ON CONFLICT (scope, day) DO UPDATE SET ends = ends + excluded.ends;`,
    ].join('\n');
  const changed = COLUMNS.map((c) => `OLD.${c} IS NOT NEW.${c}`).join(' OR ');
  await sql.raw(`CREATE TRIGGER patients_aftercare_counts_insert AFTER INSERT ON patients BEGIN ${add('NEW', 1)} END`).execute(db);
  await sql.raw(`CREATE TRIGGER patients_aftercare_counts_delete AFTER DELETE ON patients BEGIN ${add('OLD', -1)} END`).execute(db);
  await sql
    .raw(
      `CREATE TRIGGER patients_aftercare_counts_update AFTER UPDATE OF ${COLUMNS.join(', ')} ON patients
       WHEN ${changed} BEGIN ${add('OLD', -1)} ${add('NEW', 1)} END`,
    )
    .execute(db);
}

/** The count changes of the rows in a transition table: +1 (or -1) at the start day and the end day, per scope. */
function postgresChanges(table: string, sign: 1 | -1): string {
  const at = (column: string, starts: number, ends: number) =>
    `SELECT '*' AS scope, "${column}" AS day, ${starts} AS starts, ${ends} AS ends FROM ${table}
     UNION ALL SELECT 'coach:' || "primaryCoachId", "${column}", ${starts}, ${ends} FROM ${table} WHERE "primaryCoachId" IS NOT NULL`;
  return `${at('aftercareStart', sign, 0)} UNION ALL ${at('aftercareEnd', 0, sign)}`;
}

async function postgresTriggers(db: Kysely<any>): Promise<void> {
  // Once per statement over its transition tables, so a bulk insert (the seed) adds its counts in one upsert. Rows
  // are locked in (scope, day) order, so two writers never wait for each other crosswise; a change that leaves
  // the counts as they were writes nothing.
  const apply = (changes: string) => `INSERT INTO aftercare_day_counts (scope, day, starts, ends)
    SELECT scope, day, sum(starts), sum(ends) FROM (${changes}) AS c GROUP BY scope, day
    HAVING sum(starts) <> 0 OR sum(ends) <> 0 ORDER BY scope, day
    ON CONFLICT (scope, day) DO UPDATE SET starts = aftercare_day_counts.starts + excluded.starts,
      ends = aftercare_day_counts.ends + excluded.ends`;
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
      .raw(`CREATE FUNCTION patients_aftercare_counts_${event}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN ${apply(changes)}; RETURN NULL; END $$`)
      .execute(db);
    await sql
      .raw(`CREATE TRIGGER patients_aftercare_counts_${event} AFTER ${event.toUpperCase()} ON patients REFERENCING ${referencing}
        FOR EACH STATEMENT EXECUTE FUNCTION patients_aftercare_counts_${event}()`)
      .execute(db);
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('aftercare_day_counts')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('starts', 'integer', (c) => c.notNull())
    .addColumn('ends', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('aftercare_day_counts_pk', ['scope', 'day'])
    .execute();
  const existing = (column: string, starts: string, ends: string) =>
    sql.raw(`SELECT '*' AS scope, "${column}" AS day, ${starts} AS starts, ${ends} AS ends FROM patients
       UNION ALL SELECT 'coach:' || "primaryCoachId", "${column}", ${starts}, ${ends} FROM patients WHERE "primaryCoachId" IS NOT NULL`);
  await sql`INSERT INTO aftercare_day_counts (scope, day, starts, ends)
    SELECT scope, day, sum(starts), sum(ends) FROM (${existing('aftercareStart', '1', '0')} UNION ALL ${existing('aftercareEnd', '0', '1')}) AS c
    GROUP BY scope, day`.execute(db);
  await (postgres ? postgresTriggers(db) : sqliteTriggers(db));

  await db.schema
    .alterTable('patients')
    .addColumn('statisticsRowId', 'text', (c) => (postgres ? c.modifyEnd(sql`collate "C"`) : c))
    .execute();
  await db.schema.createIndex('patients_statistics_row_id').on('patients').column('statisticsRowId').execute();
  const period = ['statisticsRowId', 'aftercareStart', 'aftercareEnd'];
  await db.schema
    .createIndex('patients_statistics_name')
    .on('patients')
    .columns(['lastNameKey', 'firstNameKey', ...period])
    .execute();
  await db.schema
    .createIndex('patients_statistics_coach_name')
    .on('patients')
    .columns(['primaryCoachId', 'lastNameKey', 'firstNameKey', ...period])
    .execute();
  // Active patients with recent data: the summary counts them from this range instead of every active patient.
  await db.schema.createIndex('patients_last_data').on('patients').columns(['lastDataAt', 'aftercareStart', 'aftercareEnd', 'primaryCoachId']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const index of ['patients_last_data', 'patients_statistics_coach_name', 'patients_statistics_name', 'patients_statistics_row_id'])
    await db.schema.dropIndex(index).execute();
  await db.schema.alterTable('patients').dropColumn('statisticsRowId').execute();
  if (postgres) {
    for (const event of ['insert', 'delete', 'update']) {
      await sql.raw(`DROP TRIGGER patients_aftercare_counts_${event} ON patients`).execute(db);
      await sql.raw(`DROP FUNCTION patients_aftercare_counts_${event}()`).execute(db);
    }
  } else {
    for (const trigger of ['insert', 'delete', 'update']) await sql.raw(`DROP TRIGGER patients_aftercare_counts_${trigger}`).execute(db);
  }
  await db.schema.dropTable('aftercare_day_counts').execute();
}

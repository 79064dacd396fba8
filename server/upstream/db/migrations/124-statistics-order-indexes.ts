import { type Kysely, PostgresAdapter, sql } from 'kysely';

/*
 * The statistics detail table sorted by a column of the patient itself, not only by name: for each such order an
 * index in that order which also holds the period's columns, so a page walks the index from its start and stops
 * after the page's rows, instead of sorting every patient of the period (an administrator's first page sorted by
 * first name at 100,000 patients: 50 ms of CPU on SQLite, 21 on PostgreSQL, against 5 and 7 at 10,000).
 * A descending order walks the index backwards; rows equal in the sorted column still follow their row id
 * ascending (SQLite and PostgreSQL sort each such group on the way). The expressions are the ones the detail query
 * orders by (features/statistics/detail.ts): on PostgreSQL texts in byte order (collate "C"), the last data's
 * missing values first. Orders by calls, minutes, day-evaluations, status or days in aftercare walk the row id
 * index for the patients sharing the most common value (features/statistics/split-orders.ts): it holds the period
 * and the patient's id now, and replaces migration 120's index of the row id alone. An order by the coach's name
 * walks each coach's patients in row id order (patients_statistics_coach_row).
 */
const PERIOD = ['"statisticsRowId"', '"aftercareStart"', '"aftercareEnd"'];

function indexes(postgres: boolean): [name: string, columns: string][] {
  const c = (column: string) => (postgres ? `"${column}" collate "C"` : `"${column}"`);
  return [
    ['patients_statistics_first_name', ['"firstNameKey"', '"lastNameKey"', ...PERIOD].join(', ')],
    // The code itself too: SQLite then reads the index alone, also backwards.
    ['patients_statistics_code', [`lower(${c('patientCode')})`, ...PERIOD, '"patientCode"'].join(', ')],
    ['patients_statistics_start', [c('aftercareStart'), '"statisticsRowId"', '"aftercareEnd"'].join(', ')],
    ['patients_statistics_end', [c('aftercareEnd'), '"statisticsRowId"', '"aftercareStart"'].join(', ')],
    // SQLite puts missing values first in ascending order anyway (and knows no NULLS FIRST in an index).
    ['patients_statistics_last_data', [postgres ? `${c('lastDataAt')} nulls first` : c('lastDataAt'), ...PERIOD].join(', ')],
    // One coach's patients (or those without one) in row id order: a part of the order by the coach's name.
    ['patients_statistics_coach_row', ['"primaryCoachId"', ...PERIOD].join(', ')],
  ];
}

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const [name, columns] of indexes(postgres)) await sql`create index ${sql.id(name)} on patients (${sql.raw(columns)})`.execute(db);
  await db.schema.createIndex('patients_statistics_row_period').on('patients').columns(['statisticsRowId', 'aftercareStart', 'aftercareEnd', 'id']).execute();
  await db.schema.dropIndex('patients_statistics_row_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('patients_statistics_row_id').on('patients').column('statisticsRowId').execute();
  await db.schema.dropIndex('patients_statistics_row_period').execute();
  for (const [name] of indexes(false).reverse()) await db.schema.dropIndex(name).execute();
}

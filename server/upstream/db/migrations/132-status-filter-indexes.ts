import type { Kysely } from 'kysely';

/*
 * The patient list filtered by an aftercare status and a "Letzte Daten" level together ("Endet bald" and "gelb"),
 * read from an index alone. The few patients ending soon, or planned, were found through the status's index and
 * each row read to compare its last data (PostgreSQL chose instead the level's index, which holds the status's
 * columns but has a share of the table: 48,367 "grün" entries at 100,000 patients for "Geplant" with "grün", none of
 * them planned, 3 ms). With the last data in the status's indexes their matches are counted from the index alone
 * ("Endet bald" with "gelb", PostgreSQL: 2.3 -> 0.8 ms; "Geplant" with "grün": 3.0 -> 0.1), and with the list's sort
 * keys after them a page sorts its matches from the index and reads only its own rows (http/list-page.ts). Both
 * replace the index they extend: the columns they lead with stay first (migration 123's order and count by end of
 * aftercare walk the new one the same way).
 */
const SORT_KEYS = ['lastNameKey', 'firstNameKey', 'patientCode', 'id'];
const START = ['aftercareStart', 'aftercareEnd', 'lastDataAt', ...SORT_KEYS];
// The search keys last: the order by end of aftercare walks this index for a name search too (migration 133).
const SEARCH_KEYS = ['firstNameSpelledKey', 'lastNameSpelledKey', 'patientCodeKey'];
const END = ['aftercareEnd', 'lastNameKey', 'id', 'aftercareStart', 'lastDataAt', 'firstNameKey', 'patientCode', ...SEARCH_KEYS];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('patients_aftercare_start_filter').on('patients').columns(START).execute();
  await db.schema.dropIndex('patients_aftercare').execute();
  await db.schema.createIndex('patients_aftercare_end_filter').on('patients').columns(END).execute();
  await db.schema.dropIndex('patients_aftercare_end_start').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('patients_aftercare_end_start').on('patients').columns(['aftercareEnd', 'lastNameKey', 'id', 'aftercareStart']).execute();
  await db.schema.dropIndex('patients_aftercare_end_filter').execute();
  await db.schema.createIndex('patients_aftercare').on('patients').columns(['aftercareStart', 'aftercareEnd']).execute();
  await db.schema.dropIndex('patients_aftercare_start_filter').execute();
}

import type { Kysely } from 'kysely';

/*
 * An administrator's name search in an order other than the name's (by code, end of aftercare or last data): the
 * order's indexes hold the search keys after their own columns, so a walk of the order compares each entry's keys
 * without reading its row, and finds a page of "anna" (2,194 of 100,000 patients) after about 1,300 entries: 0.2 ms
 * on SQLite and 0.6 on PostgreSQL, where sorting every match took 2.8 and 8 (http/list-page.ts searchPlan). Each
 * index is replaced by one that leads with the same columns; the order, and every walk of it, stay as they were.
 * The order by end of aftercare, ascending, walks migration 132's status index, which has the keys already.
 */
const KEYS = ['firstNameKey', 'firstNameSpelledKey', 'lastNameSpelledKey', 'patientCodeKey'];
const ORDERS: [name: string, columns: string[], previous: string, previousColumns: string[]][] = [
  ['patients_code_search_order', ['patientCode', 'lastNameKey', 'id', ...KEYS], 'patients_code_order', ['patientCode', 'lastNameKey', 'id']],
  ['patients_last_data_search_order', ['lastDataAt', 'lastNameKey', 'id', ...KEYS], 'patients_last_data_order', ['lastDataAt', 'lastNameKey', 'id']],
  [
    'patients_last_data_desc_search_order',
    ['lastDataAt desc', 'lastNameKey', 'id', ...KEYS],
    'patients_last_data_desc_order',
    ['lastDataAt desc', 'lastNameKey', 'id'],
  ],
  [
    'patients_aftercare_end_desc_search_order',
    ['aftercareEnd desc', 'lastNameKey', 'id', ...KEYS],
    'patients_aftercare_end_desc_order',
    ['aftercareEnd desc', 'lastNameKey', 'id'],
  ],
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, columns, previous] of ORDERS) {
    await db.schema.createIndex(name).on('patients').columns(columns).execute();
    await db.schema.dropIndex(previous).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name, , previous, previousColumns] of [...ORDERS].reverse()) {
    await db.schema.createIndex(previous).on('patients').columns(previousColumns).execute();
    await db.schema.dropIndex(name).execute();
  }
}

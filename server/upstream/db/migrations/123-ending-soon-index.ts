import type { Kysely } from 'kysely';

/*
 * The dashboard's "ending soon" (aftercare ending in the next two weeks, started by today) and its exact count: the
 * order index of migration 113 (aftercareEnd, lastNameKey, id) with aftercareStart after them, so the count of up
 * to COUNT_LIMIT such patients reads the index alone instead of every patient in the range (SQLite, 100,000
 * patients: 1.3 -> 0.06 ms). It replaces the index it extends, which the page walked in the same order.
 */
const COLUMNS = ['aftercareEnd', 'lastNameKey', 'id'];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('patients_aftercare_end_start')
    .on('patients')
    .columns([...COLUMNS, 'aftercareStart'])
    .execute();
  await db.schema.dropIndex('patients_aftercare_end_order').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('patients_aftercare_end_order').on('patients').columns(COLUMNS).execute();
  await db.schema.dropIndex('patients_aftercare_end_start').execute();
}

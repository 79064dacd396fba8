import type { Kysely } from 'kysely';

/*
 * The patient list by end of aftercare, latest first (aftercareEnd DESC, then the name and id ascending, as
 * client/features/patient/listQuery.ts asks): the index of migration 123 holds that order only ascending in all of
 * its columns, so SQLite sorted the whole table for it. A filtered page walks this order (http/walk-or-sort.ts):
 * without an index a walk of 1,250 rows at 100,000 patients sorted all of them first (30 ms); with it, it reads the
 * rows it walks (0.8 ms). PostgreSQL reads it the same way instead of sorting the ascending index's ties.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('patients_aftercare_end_desc_order').on('patients').columns(['aftercareEnd desc', 'lastNameKey', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('patients_aftercare_end_desc_order').execute();
}

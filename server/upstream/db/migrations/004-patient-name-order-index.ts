import type { Kysely } from 'kysely';

// The patient list (client/features/patient/listQuery.ts) and the exports sort by last name, first name,
// id. An index in exactly that order serves ORDER BY ... LIMIT/OFFSET without sorting; it replaces 003's.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('patients_name_order').on('patients').columns(['lastName', 'firstName', 'id']).execute();
  await db.schema.dropIndex('patients_last_name_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('patients_last_name_id').on('patients').columns(['lastName', 'id']).execute();
  await db.schema.dropIndex('patients_name_order').execute();
}

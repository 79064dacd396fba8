import type { Kysely } from 'kysely';

// The patient list is sorted by last name and paged; with id as the tie-breaker this index serves the
// ORDER BY directly, so a page never sorts all of a coach's patients.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('patients_last_name_id').on('patients').columns(['lastName', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('patients_last_name_id').execute();
}

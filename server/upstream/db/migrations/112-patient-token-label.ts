import type { Kysely } from 'kysely';

/*
 * An optional label on an access code: whom the coach made it for, so an unused code in the list can be told apart
 * from the others before the patient exists. Codes made before it have none.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('patient_tokens').addColumn('label', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('patient_tokens').dropColumn('label').execute();
}

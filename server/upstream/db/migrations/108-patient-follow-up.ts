import type { Kysely } from 'kysely';

/*
 * The day until which a patient is left out of the dashboard's "Brauchen Aufmerksamkeit" (Wiedervorlage), set
 * from the worklist with PATCH /patients/{id} { followUpAt }. A plain patient field, so a customer's API that
 * stores what PATCH sends keeps it too.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('patients').addColumn('followUpAt', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('patients').dropColumn('followUpAt').execute();
}

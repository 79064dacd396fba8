import type { Kysely } from 'kysely';

/*
 * A deleted comment stays in the record (a clinical note must remain recognisable after a change, §630f BGB):
 * DELETE /comments/{id} sets deletedAt and deletedBy. Coaches no longer see it; administrators do, with who
 * deleted it and when (routes/resources.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('comments').addColumn('deletedAt', 'text').execute();
  await db.schema.alterTable('comments').addColumn('deletedBy', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('comments').dropColumn('deletedBy').execute();
  await db.schema.alterTable('comments').dropColumn('deletedAt').execute();
}

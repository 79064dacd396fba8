import type { Kysely } from 'kysely';

/*
 * When a login token was last used, so a session ends after SESSION_IDLE_MINUTES without a request. Tokens that
 * exist already count as last used when they were issued: an old long-lived token is then idle at once, which is
 * the point of the idle limit.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('access_tokens').addColumn('lastUsedAt', 'text').execute();
  await db
    .updateTable('access_tokens')
    .set((eb) => ({ lastUsedAt: eb.ref('createdAt') }))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('access_tokens').dropColumn('lastUsedAt').execute();
}

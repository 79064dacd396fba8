import type { Kysely } from 'kysely';

/*
 * A changed email address waits in `coaches.pendingEmail` until the link mailed to it is opened, and every mailed
 * link (reset, verification) remembers the address it went to (`access_tokens.sentTo`), so that it stops working
 * once the account's address is another. Links already out were sent to the address the account has now.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('coaches').addColumn('pendingEmail', 'text').execute();
  await db.schema.alterTable('access_tokens').addColumn('sentTo', 'text').execute();
  await db
    .updateTable('access_tokens')
    .set((eb) => ({ sentTo: eb.selectFrom('coaches').select('coaches.email').whereRef('coaches.id', '=', 'access_tokens.coachId') }))
    .where('kind', '!=', 'access')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('access_tokens').dropColumn('sentTo').execute();
  await db.schema.alterTable('coaches').dropColumn('pendingEmail').execute();
}

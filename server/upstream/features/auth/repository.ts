import { PostgresAdapter, type Transaction } from 'kysely';
import type { Upstream } from '../../context.ts';
import type { CoachTable, Database } from '../../db/types.ts';
import { addSeconds } from '../../lib/clock.ts';
import { hashToken, newToken } from '../../lib/secrets.ts';

export type TokenKind = 'access' | 'reset' | 'verify';

/** Reset links work for 30 minutes (docs/contract.md#reset-link). */
export const RESET_TOKEN_TTL_SECONDS = 30 * 60;
/** Email verification links work for 7 days. */
export const VERIFY_TOKEN_TTL_SECONDS = 7 * 24 * 3600;

/**
 * Makes a random token, stores only its SHA-256 and returns the token itself once. A mailed link names the
 * address it goes to (`sentTo`): it works only while the account still has that address (or, for the
 * confirmation of a new address, while that change is still pending).
 */
export async function issueToken(ctx: Upstream, coachId: string, kind: TokenKind, ttlSeconds: number, sentTo?: string) {
  const token = newToken();
  const created = ctx.clock.now();
  const expires = addSeconds(created, ttlSeconds);
  // Housekeeping: this coach's expired tokens go (by coachId index), so the table does not grow forever.
  await ctx.db.deleteFrom('access_tokens').where('coachId', '=', coachId).where('expiresAt', '<', created.toISOString()).execute();
  await ctx.db
    .insertInto('access_tokens')
    .values({
      id: hashToken(token),
      coachId,
      kind,
      createdAt: created.toISOString(),
      expiresAt: expires.toISOString(),
      usedAt: null,
      lastUsedAt: created.toISOString(),
      sentTo: sentTo ?? null,
    })
    .execute();
  return { token, created: created.toISOString(), ttl: ttlSeconds };
}

/** Every kind: what ends when an account is locked, deleted or gets a new address or password. */
export const ALL_TOKEN_KINDS: TokenKind[] = ['access', 'reset', 'verify'];

/** Marks every still-valid token of the kinds given as used (revoked), except the one kept. */
export async function revokeTokens(ctx: Upstream, coachId: string, kinds: TokenKind[], keepHash?: string) {
  let query = ctx.db
    .updateTable('access_tokens')
    .set({ usedAt: ctx.clock.now().toISOString() })
    .where('coachId', '=', coachId)
    .where('kind', 'in', kinds)
    .where('usedAt', 'is', null);
  if (keepHash) query = query.where('id', '!=', keepHash);
  await query.execute();
}

/**
 * Uses up a one-time token (a reset link): true for the one request that marks it used, false for every other,
 * also for a second request with the same link at the same moment that has read it as still unused.
 */
export async function claimToken(ctx: Upstream, tokenHash: string): Promise<boolean> {
  const result = await ctx.db
    .updateTable('access_tokens')
    .set({ usedAt: ctx.clock.now().toISOString() })
    .where('id', '=', tokenHash)
    .where('usedAt', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The coach's row as it is now, read inside the transaction that issues a token for it: locked on PostgreSQL (on
 * SQLite write transactions run one at a time). A lock, deletion, new password or address committed while the
 * caller was checking a password or looking the account up has then either ended this token too (it waited for
 * it) or is seen here, and no token is issued that would outlive it and work again after an unlock.
 */
export async function coachAsItIsNow(trx: Transaction<Database>, coachId: string) {
  return trx
    .selectFrom('coaches')
    .select(['isUserLocked', 'passwordHash', 'email'])
    .where('id', '=', coachId)
    .$if(trx.getExecutor().adapter instanceof PostgresAdapter, (query) => query.forUpdate())
    .executeTakeFirst();
}

/** Ends one login token (logout). */
export async function endToken(ctx: Upstream, tokenHash: string): Promise<void> {
  await ctx.db.updateTable('access_tokens').set({ usedAt: ctx.clock.now().toISOString() }).where('id', '=', tokenHash).execute();
}

/**
 * A login token, issued only if the account is still as the password check found it (coachAsItIsNow): checking the
 * password takes a while, and a lock or new password committed meanwhile has already ended the tokens the account
 * had; so has a confirmed new address (the login named the old one). 'changed' or 'locked' when it is not.
 */
export async function issueLoginToken(ctx: Upstream, checked: CoachTable) {
  return ctx.db.transaction().execute(async (trx) => {
    const now = await coachAsItIsNow(trx, checked.id);
    if (!now || now.passwordHash !== checked.passwordHash || now.email !== checked.email) return 'changed' as const;
    if (now.isUserLocked === 1) return 'locked' as const;
    return issueToken({ ...ctx, db: trx }, checked.id, 'access', ctx.session.maxHours * 3600);
  });
}

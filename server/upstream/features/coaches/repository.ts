import { type Kysely, PostgresAdapter, sql, type Transaction } from 'kysely';
import type { Db } from '../../db/index.ts';
import { insertChunked } from '../../db/insert-chunked.ts';
import type { AccessTokenTable, CoachTable, Database } from '../../db/types.ts';
import { toMe } from '../../http/auth.ts';
import { nextVersion } from '../../lib/versions.ts';
import { audit, changesBetween } from '../audit/record.ts';
import { ALL_TOKEN_KINDS, revokeTokens } from '../auth/repository.ts';
import type { Upstream } from '../../context.ts';
import type { Coach } from '../../../../contract/schemas/coaches.ts';

/* The stored coaches (accounts) outside the generic /coaches resource. */

/** A coach as the admin screens see it: never the password hash. */
export function toCoach(row: CoachTable): Coach {
  return {
    ...toMe(row),
    title: row.title,
    phone: row.phone,
    language: row.language as Coach['language'],
    trialEndsAt: row.trialEndsAt,
    pendingEmail: row.pendingEmail ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export async function findCoach(db: Db, id: string): Promise<CoachTable | undefined> {
  return db.selectFrom('coaches').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findCoachByEmail(db: Db, email: string): Promise<CoachTable | undefined> {
  return db.selectFrom('coaches').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function coachExists(db: Db, id: string): Promise<boolean> {
  return (await db.selectFrom('coaches').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/**
 * Changes some columns of a coach outside the coach resource (password, email verification), with the version
 * moved on and an audit entry in the same transaction.
 */
export async function updateCoachColumns(
  db: Kysely<Database>,
  coachId: string,
  actorId: string | null,
  now: Date,
  changes: Partial<CoachTable>,
): Promise<void> {
  const before = await db.selectFrom('coaches').selectAll().where('id', '=', coachId).executeTakeFirstOrThrow();
  const updatedAt = nextVersion(before.updatedAt, now);
  await db
    .updateTable('coaches')
    .set({ ...changes, updatedAt })
    .where('id', '=', coachId)
    .execute();
  await audit(db, {
    at: updatedAt,
    actorId,
    action: 'update',
    entity: 'coach',
    entityId: coachId,
    patientId: null,
    changes: changesBetween('coach', { ...before }, { ...before, ...changes }),
  });
}

/** A new password hash of the coach (audited as changed by the coach). */
export async function storePassword(ctx: Upstream, coachId: string, passwordHash: string): Promise<void> {
  await ctx.db.transaction().execute((trx) => updateCoachColumns(trx, coachId, coachId, ctx.clock.now(), { passwordHash }));
}

/** The unused, unexpired verification token with this hash for the coach, if there is one. */
export async function findVerificationToken(db: Db, coachId: string, tokenHash: string, now: Date): Promise<AccessTokenTable | undefined> {
  return db
    .selectFrom('access_tokens')
    .selectAll()
    .where('id', '=', tokenHash)
    .where('kind', '=', 'verify')
    .where('coachId', '=', coachId)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', now.toISOString())
    .executeTakeFirst();
}

/** An unlocked super administrator other than `except`. */
export async function activeSuperAdminExists(db: Kysely<Database>, except?: string): Promise<boolean> {
  const row = await db
    .selectFrom('coaches')
    .select('id')
    .where('isSuperAdmin', '=', 1)
    .where('isUserLocked', '=', 0)
    .$if(except !== undefined, (q) => q.where('id', '!=', except!))
    .executeTakeFirst();
  return row !== undefined;
}

/** Writes that may remove a super administrator take this lock in turn (PostgreSQL; SQLite writes run one at a time). */
export async function lockSuperAdmins(trx: Transaction<Database>): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) await sql`select pg_advisory_xact_lock(hashtext('coach-boundaries:super-admins'))`.execute(trx);
}

/**
 * Uses up the verification token and applies what its confirmation changes, in one transaction; a new address
 * ends every token of the account (sessions and links belong to the old one).
 */
export async function confirmAddress(ctx: Upstream, tokenId: string, coachId: string, changes: Partial<CoachTable>): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('access_tokens').set({ usedAt: now.toISOString() }).where('id', '=', tokenId).execute();
    await updateCoachColumns(trx, coachId, coachId, now, changes);
    if ('email' in changes) await revokeTokens({ ...ctx, db: trx }, coachId, ALL_TOKEN_KINDS);
  });
}

/** Any administrator or super administrator (start-up refuses an instance without one). */
export async function anyAdministrator(db: Db): Promise<boolean> {
  const admin = await db
    .selectFrom('coaches')
    .select('id')
    .where((eb) => eb.or([eb('isAdmin', '=', 1), eb('isSuperAdmin', '=', 1)]))
    .limit(1)
    .executeTakeFirst();
  return admin !== undefined;
}

export async function anyCoach(db: Db): Promise<boolean> {
  return (await db.selectFrom('coaches').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** Accounts made outside the API (demo data, the first administrator), stored as they are. */
export async function insertCoaches(db: Db, rows: CoachTable[]): Promise<void> {
  await insertChunked(db, 'coaches', rows);
}

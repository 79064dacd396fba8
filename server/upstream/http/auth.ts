import { currentScope } from '../db/request-scope.ts';
import type { Request, RequestHandler } from 'express';
import type { Upstream } from '../context.ts';
import type { CoachTable } from '../db/types.ts';
import { hashToken } from '../lib/secrets.ts';
import { sessionEnd, type SessionEnd } from '../lib/session-use.ts';
import type { Me } from '../../../contract/schemas/auth.ts';
import { forbidden, unauthorized } from './errors.ts';

/** The coach a request authenticated as: <Me> plus the hash of the token that did it (logout revokes it). */
export type SessionCoach = Me & { tokenHash: string };

const sessions = new WeakMap<Request, SessionCoach>();

export function bearerToken(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** <Me> of docs/contract.md#shapes: who a session belongs to. */
export function toMe(row: CoachTable): Me {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    isUserLocked: row.isUserLocked === 1,
    isAdmin: row.isAdmin === 1,
    isSuperAdmin: row.isSuperAdmin === 1,
    isHealthManager: row.isHealthManager === 1,
    emailVerified: row.emailVerified === 1,
    language: row.language,
  };
}

export function toSessionCoach(row: CoachTable, tokenHash: string): SessionCoach {
  return { ...toMe(row), tokenHash };
}

/** A token of this kind that has not been used up or revoked, with its coach; undefined when there is none. */
async function findToken(ctx: Upstream, tokenHash: string, kind: 'access' | 'reset') {
  return (
    ctx.db
      .selectFrom('access_tokens')
      .innerJoin('coaches', 'coaches.id', 'access_tokens.coachId')
      .selectAll('coaches')
      .select(['access_tokens.createdAt as tokenCreatedAt', 'access_tokens.expiresAt as tokenExpiresAt', 'access_tokens.lastUsedAt as tokenLastUsedAt'])
      .where('access_tokens.id', '=', tokenHash)
      .where('access_tokens.kind', '=', kind)
      .where('access_tokens.usedAt', 'is', null)
      // A mailed link works only while the account has the address it was sent to.
      .$if(kind === 'reset', (query) => query.whereRef('access_tokens.sentTo', '=', 'coaches.email'))
      .executeTakeFirst()
  );
}

type TokenRow = NonNullable<Awaited<ReturnType<typeof findToken>>>;

const sessionEndMessages: Record<SessionEnd, string> = {
  SESSION_IDLE: 'The session ended after a time without activity',
  SESSION_EXPIRED: 'The session reached its maximum lifetime',
};

/**
 * A login token's lifetime (lib/session-use.ts): refused once idle or too old, otherwise its last use moves to
 * now. The database write happens at most once a minute per token; the exact time stays in memory.
 */
async function continueSession(ctx: Upstream, tokenHash: string, row: TokenRow): Promise<void> {
  const now = ctx.clock.now().getTime();
  const stored = Date.parse(row.tokenLastUsedAt ?? row.tokenCreatedAt);
  const times = { createdAt: Date.parse(row.tokenCreatedAt), expiresAt: Date.parse(row.tokenExpiresAt), lastUsedAt: ctx.recentUses.lastUse(tokenHash, stored) };
  const end = sessionEnd(ctx.session, times, now);
  if (end) throw unauthorized(sessionEndMessages[end], end);
  if (ctx.recentUses.record(tokenHash, stored, now)) {
    await ctx.db
      .updateTable('access_tokens')
      .set({ lastUsedAt: new Date(now).toISOString() })
      .where('id', '=', tokenHash)
      .execute();
  }
}

/**
 * 401 unless the request carries a live login token of an unlocked coach. A locked coach's tokens stop
 * working at once (docs/contract.md#errors: 403 at login, 401 on every later call); an idle or too old one answers
 * SESSION_IDLE or SESSION_EXPIRED (docs/contract.md#sessions). `kind: 'reset'` accepts only the one-time token of an
 * emailed link instead (set-password), so such a link can never open a session.
 */
export function requireAuth(ctx: Upstream, kind: 'access' | 'reset' = 'access'): RequestHandler {
  return async (req, _res, next) => {
    const token = bearerToken(req);
    if (!token) throw unauthorized();
    const tokenHash = hashToken(token);
    const row = await findToken(ctx, tokenHash, kind);
    if (!row) throw unauthorized('Invalid or expired access token', 'INVALID_TOKEN');
    if (kind === 'access') await continueSession(ctx, tokenHash, row);
    else if (Date.parse(row.tokenExpiresAt) <= ctx.clock.now().getTime()) throw unauthorized('Invalid or expired access token', 'INVALID_TOKEN');
    if (row.isUserLocked === 1) throw unauthorized('This account is locked', 'ACCOUNT_LOCKED');
    const coach = toSessionCoach(row, tokenHash);
    sessions.set(req, coach);
    // From here on the request's queries count against this coach's share of the database (db/fair-gate.ts).
    const scope = currentScope();
    if (scope) scope.key = coach.id;
    next();
  };
}

/** The authenticated coach; only valid behind requireAuth. */
export function currentCoach(req: Request): SessionCoach {
  const coach = sessions.get(req);
  if (!coach) throw unauthorized();
  return coach;
}

export const isAdmin = (coach: Pick<SessionCoach, 'isAdmin' | 'isSuperAdmin'>) => coach.isAdmin || coach.isSuperAdmin;

/** 403 unless the coach is an administrator (isAdmin or isSuperAdmin). Use after requireAuth. */
export const requireAdmin: RequestHandler = (req, _res, next) => {
  if (!isAdmin(currentCoach(req))) throw forbidden('Only administrators may do this', 'ADMIN_REQUIRED');
  next();
};

/** 403 unless the coach is a health manager or an administrator (statistics). Use after requireAuth. */
export const requireHealthManagerOrAdmin: RequestHandler = (req, _res, next) => {
  const coach = currentCoach(req);
  if (!coach.isHealthManager && !isAdmin(coach)) throw forbidden('Only health managers and administrators may do this', 'HEALTH_MANAGER_REQUIRED');
  next();
};

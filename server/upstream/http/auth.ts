import type { Request, RequestHandler } from 'express';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Upstream } from '../context.ts';
import type { Db } from '../db/index.ts';
import type { CoachTable } from '../db/types.ts';
import { hashToken } from '../lib/secrets.ts';
import { toMe } from '../features/coaches/view.ts';
import { sessionEnd, type SessionEnd } from '../lib/session-use.ts';
import type { Me } from '../../../contract/schemas/auth.ts';
import { forbidden, notFound, unauthorized } from './errors.ts';

/** The coach a request authenticated as: <Me> plus the hash of the token that did it (logout revokes it). */
export type SessionCoach = Me & { tokenHash: string };

const sessions = new WeakMap<Request, SessionCoach>();

export function bearerToken(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
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
    sessions.set(req, toSessionCoach(row, tokenHash));
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

/** Ids of the patients a (non-admin) coach may see, as a subquery: primary coach or linked through patient_coaches. */
export function accessiblePatientIds(db: Db, coachId: string) {
  return db
    .selectFrom('patients')
    .select('patients.id')
    .where('patients.primaryCoachId', '=', coachId)
    .union(db.selectFrom('patient_coaches').select('patient_coaches.patientId as id').where('patient_coaches.coachId', '=', coachId));
}

/**
 * The same rule as a row condition on `patientIdColumn` (e.g. 'comments.patientId'). Written as EXISTS
 * so a sorted, paged list walks its index in order instead of sorting every match of a busy coach.
 */
// biome-ignore lint/suspicious/noExplicitAny:the condition is joined into queries over several tables
export function patientAccessCondition(eb: ExpressionBuilder<any, any>, coachId: string, patientIdColumn: string): Expression<SqlBool> {
  const linked = eb.exists(
    eb
      .selectFrom('patient_coaches as pc')
      .select(eb.lit(1).as('one'))
      .whereRef('pc.patientId', '=', patientIdColumn as never)
      .where('pc.coachId', '=', coachId),
  );
  if (patientIdColumn === 'patients.id') return eb.or([eb('patients.primaryCoachId', '=', coachId), linked]);
  const primary = eb.exists(
    eb
      .selectFrom('patients as ap')
      .select(eb.lit(1).as('one'))
      .whereRef('ap.id', '=', patientIdColumn as never)
      .where('ap.primaryCoachId', '=', coachId),
  );
  return eb.or([primary, linked]);
}

/** The access rule for everything about one patient: admin, primary coach, or linked through patient coaches. */
export async function canAccessPatient(db: Db, coach: Pick<SessionCoach, 'id' | 'isAdmin' | 'isSuperAdmin'>, patientId: string): Promise<boolean> {
  if (isAdmin(coach)) return true;
  const row = await db
    .selectFrom('patients')
    .select('id')
    .where('id', '=', patientId)
    .where((eb) => patientAccessCondition(eb, coach.id, 'patients.id'))
    .executeTakeFirst();
  return row !== undefined;
}

/** 404 when the patient does not exist, 403 when the coach may not access it. */
export async function assertPatientAccess(db: Db, coach: SessionCoach, patientId: string): Promise<void> {
  const exists = await db.selectFrom('patients').select('id').where('id', '=', patientId).executeTakeFirst();
  if (!exists) throw notFound('Unknown patient', 'PATIENT_NOT_FOUND');
  if (!(await canAccessPatient(db, coach, patientId))) throw forbidden('This patient is not linked to you', 'PATIENT_NOT_LINKED');
}

/**
 * 404 for an unknown patient, 403 unless the coach is its primary coach or an administrator: who is in the
 * care team and who is responsible is decided there, not by any colleague who can open the patient.
 */
export async function assertPrimaryCoachOrAdmin(db: Db, coach: SessionCoach, patientId: string): Promise<void> {
  const patient = await db.selectFrom('patients').select(['id', 'primaryCoachId']).where('id', '=', patientId).executeTakeFirst();
  if (!patient) throw notFound('Unknown patient', 'PATIENT_NOT_FOUND');
  if (isAdmin(coach) || (patient.primaryCoachId !== null && patient.primaryCoachId === coach.id)) return;
  if (await canAccessPatient(db, coach, patientId)) throw forbidden('Only the primary coach or an administrator may do this', 'PRIMARY_COACH_REQUIRED');
  throw forbidden('This patient is not linked to you', 'PATIENT_NOT_LINKED');
}

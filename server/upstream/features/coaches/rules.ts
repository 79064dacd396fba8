import type { Request } from 'express';
import type { Kysely, Transaction } from 'kysely';
import type { Upstream } from '../../context.ts';
import type { CoachTable, Database } from '../../db/types.ts';
import { isAdmin, type SessionCoach } from '../../http/auth.ts';
import { conflict, forbidden, notFound } from '../../http/errors.ts';
import { param } from '../../http/params.ts';
import { activeSuperAdminExists, findCoach, lockSuperAdmins } from './repository.ts';

/*
 * Who may manage whose account: change it, lock or delete it, send it a reset or verification mail, end its
 * sessions. One rule for every such call, so that no path is weaker than the others: without it, an administrator
 * could take over a super administrator's account by mailing themselves its reset link after changing its address.
 */

type Actor = Pick<SessionCoach, 'id' | 'isAdmin' | 'isSuperAdmin'>;
type Target = Pick<CoachTable, 'id' | 'isAdmin' | 'isSuperAdmin'>;

const isPrivileged = (target: Target) => target.isAdmin === 1 || target.isSuperAdmin === 1;

/**
 * Anyone their own account; an administrator a coach who is not an administrator; only a super administrator
 * an administrator or super administrator. 403 ADMIN_REQUIRED or SUPER_ADMIN_REQUIRED otherwise.
 */
export function assertMayManage(actor: Actor, target: Target): void {
  if (actor.id === target.id) return;
  if (!isAdmin(actor)) throw forbidden('Only administrators may act for other coaches', 'ADMIN_REQUIRED');
  if (isPrivileged(target) && !actor.isSuperAdmin) throw forbidden('Only a super administrator may manage administrators', 'SUPER_ADMIN_REQUIRED');
}

/** The coach named in the path, once the caller may manage them (404 for an unknown id). */
export async function managedCoach(ctx: Upstream, req: Request, actor: Actor): Promise<CoachTable> {
  const row = await findCoach(ctx.db, param(req, 'id'));
  if (!row) throw notFound('Unknown coach', 'COACH_NOT_FOUND');
  assertMayManage(actor, row);
  return row;
}

/** The coach named in the path for reading on their behalf: 404 when unknown, 403 unless it is the caller or the caller is admin. */
export async function targetCoach(ctx: Upstream, req: Request, self: Actor): Promise<CoachTable> {
  const row = await findCoach(ctx.db, param(req, 'id'));
  if (!row) throw notFound('Unknown coach', 'COACH_NOT_FOUND');
  if (row.id !== self.id && !isAdmin(self)) throw forbidden('Only administrators may act for other coaches', 'ADMIN_REQUIRED');
  return row;
}

/** 403 SUPER_ADMIN_REQUIRED when someone who is not a super administrator would change isSuperAdmin. */
export function assertMaySetSuperAdmin(actor: Actor, before: number | undefined, after: unknown): void {
  if (after === undefined || after === (before ?? 0) || actor.isSuperAdmin) return;
  throw forbidden('Only a super administrator may make or unmake super administrators', 'SUPER_ADMIN_REQUIRED');
}

/**
 * 409 LAST_SUPER_ADMIN when the write would leave no unlocked super administrator: the last one cannot be locked,
 * deleted (`after` undefined) or lose isSuperAdmin, or nobody could manage the administrators any more.
 */
export async function assertSuperAdminRemains(db: Kysely<Database>, before: CoachTable, after: Partial<CoachTable> | undefined): Promise<void> {
  if (before.isSuperAdmin !== 1 || before.isUserLocked === 1) return;
  const stays = after !== undefined && (after.isSuperAdmin ?? before.isSuperAdmin) === 1 && (after.isUserLocked ?? before.isUserLocked) === 0;
  if (stays) return;
  if (!(await activeSuperAdminExists(db, before.id))) throw conflict('The last super administrator cannot be locked, deleted or demoted', 'LAST_SUPER_ADMIN');
}

/**
 * The same rule once more inside the write's transaction, after its change: two super administrators who lock,
 * demote or delete each other at the same moment each passed assertSuperAdminRemains (the other was still
 * there), and on PostgreSQL both writes committed, leaving none. Here such writes take one lock in turn, so
 * the second sees the first and is refused with 409 LAST_SUPER_ADMIN (on SQLite write transactions already run
 * one after the other).
 */
export async function assertSuperAdminRemainsAfter(trx: Transaction<Database>, before: CoachTable): Promise<void> {
  if (before.isSuperAdmin !== 1 || before.isUserLocked === 1) return;
  await lockSuperAdmins(trx);
  if (!(await activeSuperAdminExists(trx))) throw conflict('The last super administrator cannot be locked, deleted or demoted', 'LAST_SUPER_ADMIN');
}

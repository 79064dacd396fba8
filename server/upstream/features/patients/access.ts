import type { Upstream } from '../../context.ts';
import type { AccessRule, AnyQuery } from '../../resource/resource-routes.ts';
import type { Request } from 'express';
import { assertPatientAccess, canAccessPatient, currentCoach, isAdmin, patientAccessCondition, type SessionCoach } from '../../http/auth.ts';

/** Reference data (devices, surveys, diagnoses, cost rates, replication endpoints): every coach reads, admins write. */
export const referenceData: AccessRule = {
  scopeList: (_ctx, _coach, query) => query,
  canRead: () => true,
  canWrite: (_ctx, coach) => isAdmin(coach),
  canAttempt: (coach) => isAdmin(coach),
};

/** Admins only, read and write. */
export const adminOnly: AccessRule = {
  scopeList: (_ctx, coach, query) => (isAdmin(coach) ? query : query.where((eb) => eb.val(false))),
  canRead: (_ctx, coach) => isAdmin(coach),
  canWrite: (_ctx, coach) => isAdmin(coach),
  canAttempt: (coach) => isAdmin(coach),
};

/** Narrows a list to rows whose `column` is a patient the coach may access (all rows for admins). */
export function scopeToPatients(_ctx: Upstream, coach: SessionCoach, query: AnyQuery, column: string): AnyQuery {
  if (isAdmin(coach)) return query;
  return query.where((eb) => patientAccessCondition(eb, coach.id, column));
}

/**
 * Rows that belong to one patient (field `patientField`): admins see all, a coach only rows of patients
 * they are primary coach of or linked to. Reads and writes follow the same rule.
 */
export function patientScoped(table: string, patientField: string): AccessRule {
  return {
    scopeList: (ctx, coach, query) => scopeToPatients(ctx, coach, query, `${table}.${patientField}`),
    canRead: (ctx, coach, row) => canAccessPatient(ctx.db, coach, String(row[patientField])),
    canWrite: (ctx, coach, row) => canAccessPatient(ctx.db, coach, String(row[patientField])),
  };
}

/** For routes under /patients/{id}/: the patient id of the path once the caller may open it (404 unknown, 403 not linked). */
export function patientInPath(ctx: Upstream): (req: Request) => Promise<string> {
  return async (req) => {
    const patientId = String(req.params.id);
    await assertPatientAccess(ctx.db, currentCoach(req), patientId);
    return patientId;
  };
}

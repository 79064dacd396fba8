import { Router } from 'express';
import type * as v from 'valibot';
import type { Upstream } from '../../context.ts';
import { sendAnswer } from '../../http/answer.ts';
import { currentCoach, isAdmin, requireAuth } from '../../http/auth.ts';
import { forbidden } from '../../http/errors.ts';
import { parseFilter } from '../../http/filter.ts';
import { assertPatientAccess } from '../patients/access.ts';
import { AUDIT_FIELDS, listEntries } from './repository.ts';
import { AuditEntryListSchema } from '../../../../contract/schemas/audit-log.ts';

/**
 * GET /audit-log: recorded changes, newest first, filtered and paged like every list
 * (`filter={"where":{"patientId":"…"}}` is a patient's history, `{"entity":"comment","entityId":"…"}` the
 * versions of one note). X-Total-Count has the number of matches.
 *
 * Who reads what. Administrators: everything. Every other coach: the history of one patient they may open (their
 * patient's "Verlauf" and the earlier versions of its notes, which a clinical record must keep recognisable), so
 * the filter must name that patient (`where.patientId` = one id; 404/403 as for the patient itself; anything else
 * 403). Left out for them: entries of comments deleted since (a deleted note is shown to administrators only).
 * Entries never hold passwords, access codes or recovery keys in clear (record.ts writes "[redacted]").
 */
export function auditLogRoutes(ctx: Upstream): Router {
  const router = Router();
  router.get('/audit-log', requireAuth(ctx), async (req, res) => {
    const coach = currentCoach(req);
    const filter = parseFilter(req.query as Record<string, unknown>, AUDIT_FIELDS);
    let patientId: string | undefined;
    if (!isAdmin(coach)) {
      const named = filter.where?.patientId;
      if (typeof named !== 'string') throw forbidden('Coaches read the history of one of their patients: filter where.patientId', 'PATIENT_REQUIRED');
      await assertPatientAccess(ctx.db, coach, named);
      patientId = named;
    }
    const { entries, total } = await listEntries(ctx.db, filter, patientId);
    res.set('X-Total-Count', String(total));
    sendAnswer(res, AuditEntryListSchema as v.GenericSchema, entries);
  });
  return router;
}

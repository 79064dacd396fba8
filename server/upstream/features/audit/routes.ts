import { Router } from 'express';
import type * as v from 'valibot';
import type { Upstream } from '../../context.ts';
import { sendAnswer } from '../../http/answer.ts';
import { assertPatientAccess, currentCoach, isAdmin, requireAuth } from '../../http/auth.ts';
import { forbidden } from '../../http/errors.ts';
import { parseFilter, whereExpression, type FieldMap } from '../../http/filter.ts';
import { AuditEntryListSchema, type AuditEntry } from '../../../../contract/schemas/audit-log.ts';

export const AUDIT_FIELDS: FieldMap = {
  id: 'string',
  at: 'date',
  actorId: 'string',
  action: 'string',
  entity: 'string',
  entityId: 'string',
  patientId: 'string',
};

/**
 * GET /audit-log: recorded changes, newest first, filtered and paged like every list
 * (`filter={"where":{"patientId":"…"}}` is a patient's history, `{"entity":"comment","entityId":"…"}` the
 * versions of one note). X-Total-Count has the number of matches.
 *
 * Who reads what. Administrators: everything. Every other coach: the history of one patient they may open (their
 * patient's "Verlauf" and the earlier versions of its notes, which a clinical record must keep recognisable), so
 * the filter must name that patient (`where.patientId` = one id; 404/403 as for the patient itself; anything else
 * 403). Left out for them: entries of comments deleted since (a deleted note is shown to administrators only).
 * Entries never hold passwords, access codes or recovery keys in clear (lib/audit.ts writes "[redacted]").
 */
export function auditLogRoutes(ctx: Upstream): Router {
  const router = Router();
  router.get('/audit-log', requireAuth(ctx), async (req, res) => {
    const coach = currentCoach(req);
    const filter = parseFilter(req.query as Record<string, unknown>, AUDIT_FIELDS);
    let base = ctx.db.selectFrom('audit_log');
    if (!isAdmin(coach)) {
      const patientId = filter.where?.patientId;
      if (typeof patientId !== 'string') throw forbidden('Coaches read the history of one of their patients: filter where.patientId', 'PATIENT_REQUIRED');
      await assertPatientAccess(ctx.db, coach, patientId);
      base = base
        .where('audit_log.patientId', '=', patientId)
        .where((eb) =>
          eb.not(
            eb.and([
              eb('audit_log.entity', '=', 'comment'),
              eb('audit_log.entityId', 'in', eb.selectFrom('comments').select('comments.id').where('comments.deletedAt', 'is not', null)),
            ]),
          ),
        );
    }
    if (filter.where) base = base.where((eb) => whereExpression(eb, filter.where!, 'audit_log'));
    const counted = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    let query = base.leftJoin('coaches', 'coaches.id', 'audit_log.actorId').selectAll('audit_log').select(['coaches.firstName', 'coaches.lastName']);
    const order = filter.order.length
      ? filter.order
      : [
          { field: 'at', direction: 'desc' as const },
          { field: 'id', direction: 'desc' as const },
        ];
    for (const o of order) query = query.orderBy(`audit_log.${o.field}` as 'audit_log.at', o.direction);
    if (!order.some((o) => o.field === 'id')) query = query.orderBy('audit_log.id', 'desc');
    const rows = await query
      .limit(filter.limit ?? 100)
      .offset(filter.skip)
      .execute();
    const entries: AuditEntry[] = rows.map((r) => ({
      id: r.id,
      at: r.at,
      actorId: r.actorId,
      actorName: r.firstName ? `${r.firstName} ${r.lastName}` : null,
      action: r.action,
      entity: r.entity as AuditEntry['entity'],
      entityId: r.entityId,
      patientId: r.patientId,
      changes: JSON.parse(r.changes) as AuditEntry['changes'],
    }));
    res.set('X-Total-Count', String(Number(counted.n)));
    sendAnswer(res, AuditEntryListSchema as v.GenericSchema, entries);
  });
  return router;
}

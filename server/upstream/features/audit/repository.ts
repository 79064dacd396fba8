import type { Db } from '../../db/index.ts';
import type { FieldMap, ParsedFilter } from '../../http/filter.ts';
import { whereExpression } from '../../http/filter.ts';
import type { AuditEntry } from '../../../../contract/schemas/audit-log.ts';

export const AUDIT_FIELDS: FieldMap = {
  id: 'string',
  at: 'date',
  actorId: 'string',
  action: 'string',
  entity: 'string',
  entityId: 'string',
  patientId: 'string',
};

/** A page of the audit log when the filter names no limit. */
const DEFAULT_PAGE_SIZE = 100;

/**
 * One page of entries matching the filter (newest first unless it orders otherwise), with actor names, and the
 * number of all matches. `patientId` narrows to one patient's history without the entries of comments deleted
 * since (a deleted note is shown to administrators only).
 */
export async function listEntries(db: Db, filter: ParsedFilter, patientId?: string): Promise<{ entries: AuditEntry[]; total: number }> {
  let base = db.selectFrom('audit_log');
  if (patientId !== undefined) {
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
    .limit(filter.limit ?? DEFAULT_PAGE_SIZE)
    .offset(filter.skip)
    .execute();
  const entries = rows.map((r) => ({
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
  return { entries, total: Number(counted.n) };
}

import { isUniqueViolation } from '../db/index.ts';
import { type AuditEntry, changesBetween } from '../features/audit/record.ts';
import type { SessionCoach } from '../http/auth.ts';
import { conflict } from '../http/errors.ts';
import type { ResourceDefinition, Row } from './definition.ts';

/** The audit-log entry of one write of a resource (none when the resource is not audited). */
export function auditEntry(
  def: ResourceDefinition,
  action: 'create' | 'update' | 'delete',
  coach: SessionCoach,
  at: string,
  before: Row | undefined,
  after: Row | undefined,
): AuditEntry | undefined {
  const spec = def.audit;
  if (!spec) return undefined;
  const row = (after ?? before)!;
  return {
    at,
    actorId: coach.id,
    action,
    entity: spec.entity,
    entityId: row.id,
    patientId: spec.patientIdOf(row),
    changes: changesBetween(spec.entity, before, after),
  };
}

/** Runs one write of the resource; a UNIQUE violation becomes 409 naming the field. */
export async function storeUnique<T>(def: ResourceDefinition, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) {
      const field = def.uniqueField ?? 'id';
      throw conflict(`${field} is already taken`, 'ALREADY_EXISTS', [{ path: field, message: 'Already taken' }]);
    }
    throw error;
  }
}

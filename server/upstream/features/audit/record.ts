import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { randomBytes } from 'node:crypto';

/** What the audit log records about; one name per kind of record. */
export type AuditEntity = 'patient' | 'comment' | 'patient-coach' | 'patient-device' | 'device' | 'patient-token' | 'puk' | 'evaluation-form' | 'coach';

export interface AuditChange {
  before: unknown;
  after: unknown;
}
export type AuditChanges = Record<string, AuditChange>;

/** Stands in for a secret (password hash, access code, recovery key) in an entry: that it changed, never what to. */
export const REDACTED = '[redacted]';

/** Fields whose values never reach the log in clear, per entity. */
const SECRET_FIELDS: Partial<Record<AuditEntity, readonly string[]>> = { coach: ['passwordHash', 'password'], 'patient-token': ['code'], puk: ['code'] };
/** Fields stored as JSON text; the log holds them decoded, so a reader sees lists, not strings. */
const JSON_FIELDS = new Set(['diagnosisIds', 'appointments', 'questions']);
/** Bookkeeping that changes with every write and says nothing a reader needs. */
const IGNORED = new Set(['id', 'updatedAt', 'createdAt']);

function shown(entity: AuditEntity, field: string, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (SECRET_FIELDS[entity]?.includes(field)) return REDACTED;
  if (JSON_FIELDS.has(field) && typeof value === 'string') {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}

/**
 * before/after of every field that differs between two versions of a row (undefined = the row did not
 * exist: a create has no before, a delete no after). Unchanged fields are left out.
 */
export function changesBetween(entity: AuditEntity, before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): AuditChanges {
  const fields = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const changes: AuditChanges = {};
  for (const field of fields) {
    if (IGNORED.has(field)) continue;
    const a = before?.[field] ?? null;
    const b = after?.[field] ?? null;
    if (a === b && before && after) continue;
    if (a === null && b === null) continue;
    changes[field] = { before: before ? shown(entity, field, a) : null, after: after ? shown(entity, field, b) : null };
  }
  return changes;
}

export interface AuditEntry {
  at: string;
  actorId: string | null;
  action: 'create' | 'update' | 'delete';
  entity: AuditEntity;
  entityId: string;
  patientId: string | null;
  changes: AuditChanges;
}

/**
 * Appends one entry. Call it with the transaction that makes the change, so a change is never stored
 * without its entry (or an entry without its change). An update that changed nothing writes nothing.
 */
export async function audit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  if (entry.action === 'update' && Object.keys(entry.changes).length === 0) return;
  await db
    .insertInto('audit_log')
    .values({ id: sortableId(entry.at), ...entry, changes: JSON.stringify(entry.changes) })
    .execute();
}

let sequence = 0;
/**
 * Ids that sort like the entries were written: the time, then a per-process counter (two changes in one
 * millisecond keep their order), then randomness so two processes never collide.
 */
function sortableId(at: string): string {
  sequence = (sequence + 1) % 36 ** 6;
  const ms = Date.parse(at);
  return `${(Number.isFinite(ms) ? ms : 0).toString(36).padStart(9, '0')}-${sequence.toString(36).padStart(6, '0')}-${randomBytes(4).toString('hex')}`;
}

/** Inserts one new row and its 'create' entry in the audit log, in one transaction. */
export async function insertAudited(
  db: Kysely<Database>,
  table: keyof Database,
  row: { id: string },
  entry: { at: string; actorId: string; entity: AuditEntity; patientId: string | null },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto(table)
      .values(row as never)
      .execute();
    await audit(trx, { ...entry, action: 'create', entityId: row.id, changes: changesBetween(entry.entity, undefined, { ...row }) });
  });
}

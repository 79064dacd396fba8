import * as v from 'valibot';
import { IdSchema } from './common.ts';

/** Kinds of record the audit log of the built-in upstream follows. */
export const AuditEntitySchema = v.picklist([
  'patient',
  'comment',
  'patient-coach',
  'patient-device',
  'device',
  'patient-token',
  'puk',
  'evaluation-form',
  'coach',
]);

/**
 * One change (GET /audit-log: administrators, and coaches for one of their patients): who made it, when, to which record, and before/after of each
 * changed field. A create has before null, a delete after null. Secrets (password hashes, access codes,
 * recovery keys) appear only as "[redacted]". Link records (patient-coach, patient-device) have the id
 * "<patientId>/<coachId|deviceId>".
 */
export const AuditEntrySchema = v.object({
  id: IdSchema,
  at: v.string(),
  /** The coach who made the change; null for the system. */
  actorId: v.nullable(v.string()),
  /** "Vorname Nachname" of that coach now; null when the system or a deleted coach. */
  actorName: v.nullable(v.string()),
  action: v.picklist(['create', 'update', 'delete']),
  entity: AuditEntitySchema,
  entityId: v.string(),
  /** The patient the record belongs to (filter `{ where: { patientId } }` for a patient's history). */
  patientId: v.nullable(v.string()),
  changes: v.record(v.string(), v.object({ before: v.unknown(), after: v.unknown() })),
});
export type AuditEntry = v.InferOutput<typeof AuditEntrySchema>;
export const AuditEntryListSchema = v.array(AuditEntrySchema);

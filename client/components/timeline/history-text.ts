import type { AuditEntry } from '../../../contract/schemas/audit-log.ts';
import { dayText } from '../AftercareBadge.tsx';
import { formatDate, t } from '../../lib/i18n.ts';

/* How an entry of the audit log reads in the patient's "Verlauf": a title, and the changed fields before and after. */

export interface HistoryNames {
  coaches: Map<string, string>;
  devices: Map<string, string>;
  diagnoses: Map<string, string>;
  costRates: Map<string, string>;
}

export interface HistoryLine {
  label: string;
  before: string;
  after: string;
}

/** The kinds of record the "Verlauf" shows (comments have their own versions under each note). */
export const HISTORY_ENTITIES = ['patient', 'patient-coach', 'patient-device', 'patient-token', 'puk', 'evaluation-form'] as const;

const REDACTED = '[redacted]';
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T/;

const LABELS: Record<string, string> = {
  followUpAt: 'patient.history.field.followUpAt',
  appointments: 'patient.appointments.title',
  expiresAt: 'patient.history.field.expiresAt',
  usedAt: 'patient.history.field.usedAt',
  coachId: 'patient.history.field.coachId',
  code: 'patient.history.field.code',
  goalAttainment: 'patient.evaluation.goalAttainment',
  workAbility: 'patient.evaluation.workAbility',
  returnToWorkDate: 'patient.evaluation.returnToWorkDate',
  followUpRecommended: 'patient.evaluation.followUp',
  summary: 'patient.evaluation.summary',
};
/** Bookkeeping fields that say nothing to a reader of the history. */
const HIDDEN = new Set(['patientId', 'updatedBy', 'lastDataAt', 'deviceId']);

function value(field: string, raw: unknown, names: HistoryNames): string {
  if (raw === null || raw === undefined || raw === '') return t('patient.none');
  if (raw === REDACTED) return t('patient.history.redacted');
  if (typeof raw === 'boolean') return raw ? t('conflict.yes') : t('conflict.no');
  if (field === 'appointments' && Array.isArray(raw)) return t('patient.history.appointments', { n: raw.length });
  if (field === 'diagnosisIds' && Array.isArray(raw)) return raw.map((id) => names.diagnoses.get(String(id)) ?? String(id)).join(', ') || t('patient.none');
  if (field === 'primaryCoachId' || field === 'coachId') return names.coaches.get(String(raw)) ?? t('patient.history.unknownCoach');
  if (field === 'costRateId') return names.costRates.get(String(raw)) ?? String(raw);
  if (field === 'gender') return t(`patient.gender.${String(raw)}`);
  if (field === 'workAbility') return t(`patient.evaluation.work.${String(raw)}`);
  if (typeof raw === 'string' && DAY.test(raw)) return dayText(raw);
  if (typeof raw === 'string' && TIMESTAMP.test(raw)) return formatDate(raw, { dateStyle: 'medium', timeStyle: 'short' });
  return typeof raw === 'object' ? JSON.stringify(raw) : String(raw);
}

function title(entry: AuditEntry, names: HistoryNames): string {
  const fields = Object.keys(entry.changes);
  const other = String(entry.changes.coachId?.before ?? entry.changes.coachId?.after ?? entry.entityId.split('/')[1] ?? '');
  const device = String(entry.changes.deviceId?.before ?? entry.changes.deviceId?.after ?? entry.entityId.split('/')[1] ?? '');
  switch (entry.entity) {
    case 'patient':
      if (entry.action !== 'update') return t(`patient.history.patient.${entry.action}`);
      if (fields.every((f) => f === 'appointments')) return t('patient.history.patient.appointments');
      if (fields.every((f) => f === 'followUpAt')) return t('patient.history.patient.followUp');
      return t('patient.history.patient.update');
    case 'patient-coach':
      return t(`patient.history.coach.${entry.action === 'delete' ? 'removed' : 'added'}`, {
        name: names.coaches.get(other) ?? t('patient.history.unknownCoach'),
      });
    case 'patient-device':
      return t(`patient.history.device.${entry.action === 'delete' ? 'removed' : 'added'}`, {
        name: names.devices.get(device) ?? t('patient.history.unknownDevice'),
      });
    case 'patient-token':
      return t(`patient.history.token.${entry.action}`);
    case 'puk':
      return t(`patient.history.puk.${entry.action}`);
    case 'evaluation-form':
      return t('patient.history.evaluation');
    default:
      return t('patient.history.other');
  }
}

/** Title and changed fields of one entry; link entries (care team, devices) and creations need no field list. */
export function describeEntry(entry: AuditEntry, names: HistoryNames): { title: string; lines: HistoryLine[] } {
  const showFields = entry.action === 'update' || entry.entity === 'evaluation-form';
  const lines = showFields
    ? Object.entries(entry.changes)
        .filter(([field]) => !HIDDEN.has(field))
        .map(([field, change]) => ({
          label: t(LABELS[field] ?? `patient.fields.${field}`),
          before: value(field, change.before, names),
          after: value(field, change.after, names),
        }))
    : [];
  return { title: title(entry, names), lines };
}

/** Who made the change, as the history shows it. */
export function actorOf(entry: AuditEntry): string {
  return entry.actorName ?? (entry.actorId ? t('patient.history.unknownCoach') : t('patient.history.system'));
}

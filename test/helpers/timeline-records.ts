// Builders for the patient's timeline ("Chronik") and the calls it shows: one record of each kind it lists.
import type { AuditEntry } from '../../contract/schemas/audit-log.ts';
import type { ExternalComment } from '../../contract/schemas/external-comments.ts';
import type { PatientToken } from '../../contract/schemas/patient-tokens.ts';
import type { Appointment } from '../../contract/schemas/patients.ts';
import type { SyncRecord } from '../../contract/schemas/sync-db.ts';

type EventData = SyncRecord<'event'>['data'];

/** A call recorded on the worklist (a phone-coaching event with its kind), by coach-1. */
export function buildCallEvent(overrides: Partial<Omit<SyncRecord<'event'>, 'data'>> = {}, data: Partial<EventData> = {}): SyncRecord<'event'> {
  const start = data.start ?? '2026-11-10T09:12:00.000Z';
  return {
    id: 'call-1',
    patientId: 'p1',
    date: start.slice(0, 10),
    updatedAt: start,
    ...overrides,
    data: {
      type: 'phone-coaching',
      kind: 'call-reached',
      title: 'Telefonat (erreicht)',
      start,
      durationMinutes: 20,
      done: true,
      coachId: 'coach-1',
      templateId: null,
      notes: 'Schläft besser, will wieder spazieren gehen.',
      ...data,
    },
  };
}

export function buildExternalComment(overrides: Partial<ExternalComment> = {}): ExternalComment {
  return {
    id: 'e-1',
    patientId: 'p1',
    source: 'patient-app',
    author: 'Anna Müller',
    text: 'Diese Woche war anstrengend.',
    createdAt: '2026-11-08T18:00:00.000Z',
    ...overrides,
  };
}

export function buildAccessCode(overrides: Partial<PatientToken> = {}): PatientToken {
  return {
    id: 't-1',
    code: 'K7QMR3TXW',
    coachId: 'coach-1',
    patientId: 'p1',
    expiresAt: '2027-01-30T00:00:00.000Z',
    usedAt: null,
    createdAt: '2026-11-01T08:00:00.000Z',
    label: null,
    ...overrides,
  };
}

export function buildAppointment(overrides: Partial<Appointment> = {}): Appointment {
  return { id: 'a-1', startsAt: '2026-11-12T10:00:00.000Z', durationMinutes: 30, type: 'video', note: 'Rückfallplan besprechen', ...overrides };
}

/** A change of the follow-up day, as the audit log records it. */
export function buildAuditEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: 'au-1',
    at: '2026-11-09T12:00:00.000Z',
    actorId: 'coach-1',
    actorName: 'Clara Coach',
    action: 'update',
    entity: 'patient',
    entityId: 'p1',
    patientId: 'p1',
    changes: { followUpAt: { before: null, after: '2026-11-20' } },
    ...overrides,
  };
}

import type { ExternalComment } from '../../contract/schemas/external-comments.ts';
import type { Appointment } from '../../contract/schemas/patients.ts';
import type { SyncRecord } from '../../contract/schemas/sync-db.ts';

/** Builders for "Mein Tag": appointments, notes from the app and day evaluations. */

export function buildAppointment(startsAt: string, overrides: Partial<Appointment> = {}): Appointment {
  return { id: `a-${startsAt}`, startsAt, durationMinutes: 30, type: 'phone', note: '', ...overrides };
}

export function buildAppNote(patientId: string, createdAt: string, overrides: Partial<ExternalComment> = {}): ExternalComment {
  return { id: `e-${patientId}-${createdAt}`, patientId, source: 'patient-app', author: 'App', text: 'Diese Woche war anstrengend.', createdAt, ...overrides };
}

/** One day evaluation record per `[day, mood]`, as GET /patients/{id}/sync-db/day-evaluation answers. */
export function buildDayEvaluations(patientId: string, moods: [string, number][]): SyncRecord<'day-evaluation'>[] {
  return moods.map(([day, mood]) => ({
    id: `de-${day}`,
    patientId,
    date: day,
    updatedAt: `${day}T20:00:00.000Z`,
    data: { date: day, mood, sleep: 3, stress: 3, pain: null, notes: '' },
  }));
}

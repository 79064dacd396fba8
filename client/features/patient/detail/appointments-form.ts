import * as v from 'valibot';
import { AppointmentListSchema, type Appointment } from '../../../../contract/schemas/patients.ts';
import { formatDate, t } from '../../../lib/i18n.ts';

/* The pieces of the appointments panel (Appointments.tsx): the form's state, the versioned list and its draft. */

export const TYPES = ['phone', 'video', 'onsite'] as const;

export function newId(): string {
  return globalThis.crypto?.randomUUID?.() ?? `a-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/** "2026-11-22T09:30" (local, for datetime-local inputs) from an ISO timestamp, and back. */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export const empty = () => ({ id: '', startsAt: '', durationMinutes: '30', type: 'phone' as Appointment['type'], note: '' });
export type FormState = ReturnType<typeof empty>;

/*
 * The list is versioned with its patient: a save names the patient's version (If-Match), and a 412 carries the
 * list as it is now. The base that the hook compares is the patient record with that list.
 */
export const PatientAppointmentsSchema = v.pipe(
  AppointmentListSchema,
  v.transform((appointments) => ({ appointments, updatedAt: null as string | null })),
);
export type Versioned = v.InferOutput<typeof PatientAppointmentsSchema>;
export const sameList = (a: Versioned, b: Versioned) => JSON.stringify(a.appointments) === JSON.stringify(b.appointments);
export const describe = (list: Appointment[]) =>
  list
    .map(
      (a) =>
        `${formatDate(a.startsAt, { dateStyle: 'medium', timeStyle: 'short' })} ${t(`patient.appointments.type.${a.type}`)}${a.note ? ` (${a.note})` : ''}`,
    )
    .join('\n');

/**
 * The appointments draft of a coach and patient: the appointment being typed, and a changed list the server has not
 * confirmed (a failed save) with the version it was made on, so a reload can still save it with If-Match.
 */
export interface AppointmentsDraft {
  form: FormState | null;
  pending: { list: Appointment[]; base: Versioned; etag: string | null } | null;
}

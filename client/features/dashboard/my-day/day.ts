import { dateFormat } from '../../../lib/i18n.ts';
import type { Appointment, Patient } from '../../../../contract/schemas/patients.ts';

/*
 * "Mein Tag" from the patients the dashboard already holds (their appointments and follow-up days): no call of
 * its own. Days are calendar days in the coach's time zone (the browser's unless one is given): an appointment at
 * 00:30 in Berlin belongs to that day even though it is the evening before in UTC.
 */

export interface DayAppointment {
  patient: Patient;
  appointment: Appointment;
  /** The appointment's calendar day, `YYYY-MM-DD`, in the time zone used. */
  day: string;
}

export interface DayAppointments {
  today: DayAppointment[];
  /** From tomorrow up to and including Sunday of the current week (weeks start on Monday, as in DIN 1355/ISO 8601). */
  laterThisWeek: DayAppointment[];
}

/** The calendar day `YYYY-MM-DD` of a moment in a time zone (the browser's when none is given). */
export function dayIn(moment: Date, timeZone?: string): string {
  // en-CA writes dates as YYYY-MM-DD.
  return dateFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(moment);
}

/** A day `YYYY-MM-DD` moved by `days` (calendar arithmetic, no time zone involved). */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Sunday of the week of `day`, weeks running Monday to Sunday. */
export function endOfWeek(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 = Sunday
  return addDays(day, weekday === 0 ? 0 : 7 - weekday);
}

/** Today's appointments and those later this week, each in time order. */
export function appointmentsOfWeek(patients: readonly Patient[], now: Date, timeZone?: string): DayAppointments {
  const today = dayIn(now, timeZone);
  const sunday = endOfWeek(today);
  const all: DayAppointment[] = [];
  for (const patient of patients) {
    for (const appointment of patient.appointments ?? []) {
      const start = new Date(appointment.startsAt);
      if (Number.isNaN(start.getTime())) continue;
      const day = dayIn(start, timeZone);
      if (day >= today && day <= sunday) all.push({ patient, appointment, day });
    }
  }
  all.sort((a, b) => Date.parse(a.appointment.startsAt) - Date.parse(b.appointment.startsAt));
  return { today: all.filter((a) => a.day === today), laterThisWeek: all.filter((a) => a.day > today) };
}

/** Patients whose follow-up day (Wiedervorlage) is today or past, the longest overdue first. */
export function followUpsDue(patients: readonly Patient[], now: Date, timeZone?: string): Patient[] {
  const today = dayIn(now, timeZone);
  return patients
    .filter((p) => !!p.followUpAt && p.followUpAt <= today)
    .sort((a, b) => (a.followUpAt ?? '').localeCompare(b.followUpAt ?? '') || a.lastName.localeCompare(b.lastName));
}

import { describe, expect, test } from 'vitest';
import { buildAppointment } from '../../../../test/helpers/my-day-records.ts';
import { buildPatient } from '../../../../test/helpers/screen-records.ts';
import { appointmentsOfWeek, endOfWeek, followUpsDue } from './day.ts';

const BERLIN = 'Europe/Berlin';
const names = (rows: { patient: { lastName: string } }[]) => rows.map((r) => r.patient.lastName);

describe("today's and this week's appointments", () => {
  // Thursday 26 November 2026, 09:00 in Berlin.
  const now = new Date('2026-11-26T08:00:00Z');

  test('lists today in time order, and later this week only up to Sunday', () => {
    const patients = [
      buildPatient({ id: 'a', lastName: 'Spaet', appointments: [buildAppointment('2026-11-26T15:00:00Z')] }),
      buildPatient({ id: 'b', lastName: 'Frueh', appointments: [buildAppointment('2026-11-26T07:30:00Z')] }),
      buildPatient({ id: 'c', lastName: 'Sonntag', appointments: [buildAppointment('2026-11-29T10:00:00Z')] }),
      buildPatient({ id: 'd', lastName: 'Montag', appointments: [buildAppointment('2026-11-30T10:00:00Z')] }),
      buildPatient({ id: 'e', lastName: 'Gestern', appointments: [buildAppointment('2026-11-25T10:00:00Z')] }),
    ];
    const week = appointmentsOfWeek(patients, now, BERLIN);
    expect(names(week.today)).toEqual(['Frueh', 'Spaet']);
    expect(names(week.laterThisWeek)).toEqual(['Sonntag']);
  });

  test('counts an appointment on the day it has in the coach’s time zone, not in UTC', () => {
    // 23:30 UTC on Wednesday is 00:30 on Thursday in Berlin, and still Wednesday evening in New York (yesterday, seen on Thursday morning there).
    const patients = [buildPatient({ lastName: 'Mitternacht', appointments: [buildAppointment('2026-11-25T23:30:00Z')] })];
    expect(names(appointmentsOfWeek(patients, now, BERLIN).today)).toEqual(['Mitternacht']);
    expect(names(appointmentsOfWeek(patients, new Date('2026-11-26T14:00:00Z'), 'America/New_York').today)).toEqual([]);
  });

  test('on a Sunday the week ends that night; on a Monday it runs to the next Sunday', () => {
    const patients = [buildPatient({ lastName: 'Montag', appointments: [buildAppointment('2026-11-30T09:00:00Z')] })];
    // Sunday 29 November, 22:00 in Berlin: Monday's appointment belongs to next week.
    expect(appointmentsOfWeek(patients, new Date('2026-11-29T21:00:00Z'), BERLIN).laterThisWeek).toEqual([]);
    // Sunday 29 November 23:30 UTC is already Monday in Berlin: the appointment is today's.
    expect(names(appointmentsOfWeek(patients, new Date('2026-11-29T23:30:00Z'), BERLIN).today)).toEqual(['Montag']);
    expect(endOfWeek('2026-11-30')).toBe('2026-12-06');
    expect(endOfWeek('2026-12-06')).toBe('2026-12-06');
    // Across a month and a year end.
    expect(endOfWeek('2026-12-31')).toBe('2027-01-03');
  });

  test('leaves out appointments with an unreadable start', () => {
    const patients = [buildPatient({ appointments: [buildAppointment('nicht lesbar')] })];
    expect(appointmentsOfWeek(patients, now, BERLIN)).toEqual({ today: [], laterThisWeek: [] });
  });
});

describe('follow-ups due', () => {
  test('lists follow-up days of today and before, the longest overdue first, and not those ahead or unset', () => {
    const now = new Date('2026-11-26T08:00:00Z');
    const patients = [
      buildPatient({ id: '1', lastName: 'Heute', followUpAt: '2026-11-26' }),
      buildPatient({ id: '2', lastName: 'Morgen', followUpAt: '2026-11-27' }),
      buildPatient({ id: '3', lastName: 'Ueberfaellig', followUpAt: '2026-11-20' }),
      buildPatient({ id: '4', lastName: 'Ohne', followUpAt: null }),
    ];
    expect(followUpsDue(patients, now, BERLIN).map((p) => p.lastName)).toEqual(['Ueberfaellig', 'Heute']);
  });
});

import { afterEach, expect, test } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import fr from '../../locales/fr.json' with { type: 'json' };
import { activate, addDictionary } from './i18n.ts';
import { ageOn, appointmentTime, birthText, nextAppointment, telHref } from './identity.ts';

const on = (day: string) => new Date(`${day}T12:00:00`);

afterEach(() => activate('de'));

test('the age counts whole years and grows on the birthday, not before', () => {
  expect(ageOn('1961-03-12', on('2026-03-11'))).toBe(64);
  expect(ageOn('1961-03-12', on('2026-03-12'))).toBe(65);
  expect(ageOn('1961-03-12', on('2026-11-26'))).toBe(65);
  expect(ageOn('1960-02-29', on('2026-02-28'))).toBe(65);
  expect(ageOn('1960-02-29', on('2026-03-01'))).toBe(66);
});

test('the date of birth reads as the language writes a date, with the age beside it', () => {
  expect(birthText('1961-03-12', on('2026-03-11'))).toBe('12.03.1961 (64)');
  addDictionary('en', en as Record<string, unknown>);
  activate('en');
  expect(birthText('1961-03-12', on('2026-03-11'))).toBe('Mar 12, 1961 (64)');
  addDictionary('fr', fr as Record<string, unknown>);
  activate('fr');
  expect(birthText('1961-03-12', on('2026-03-11'))).toBe('12 mars 1961 (64 ans)');
});

test('a missing or unreadable date of birth shows nothing rather than a wrong age', () => {
  expect(birthText('', on('2026-03-11'))).toBe('');
  expect(birthText(null, on('2026-03-11'))).toBe('');
  expect(birthText('unknown', on('2026-03-11'))).toBe('');
  expect(birthText('2030-01-01', on('2026-03-11'))).toBe('');
});

test('the phone link dials the digits, whatever separators the number has', () => {
  expect(telHref('+49 (171) 555-01 01')).toBe('tel:+491715550101');
  expect(telHref('030 / 1234-56')).toBe('tel:030123456');
});

test('the next appointment is the soonest one from now on', () => {
  const now = Date.parse('2026-11-26T10:00:00Z');
  const appointments = ['2026-12-03T09:00:00Z', '2026-11-20T09:00:00Z', '2026-11-27T09:00:00Z'].map((startsAt) => ({ startsAt }));
  expect(nextAppointment({ appointments }, now)?.startsAt).toBe('2026-11-27T09:00:00Z');
  expect(nextAppointment({ appointments: appointments.slice(1, 2) }, now)).toBeNull();
});

test('an appointment reads with its weekday in the same medium date format as every other date of the language', () => {
  const start = new Date(2026, 11, 9, 14, 0).toISOString();
  expect(appointmentTime(start)).toBe('Mi, 09.12.2026, 14:00');
  addDictionary('en', en as Record<string, unknown>);
  activate('en');
  expect(appointmentTime(start)).toMatch(/^Wed, Dec 9, 2026, 2:00\sPM$/);
});

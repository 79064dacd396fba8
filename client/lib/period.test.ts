import { afterEach, expect, test } from 'vitest';
import { activate } from './i18n.ts';
import { formatDay, formatPeriod } from './period.ts';

afterEach(() => activate('de'));
const plain = (text: string) => text.replace(/\s/g, ' ');

test('days and periods read in one date format per language', () => {
  const period = { from: '2026-10-01', to: '2026-11-26' };
  activate('de');
  expect([formatDay('2026-11-26'), plain(formatPeriod(period)), plain(formatPeriod({ from: '2026-11-01', to: '2026-11-26' }))]).toEqual([
    '26.11.2026',
    '01.10. – 26.11.2026',
    '01.–26.11.2026',
  ]);
  activate('en');
  expect([formatDay('2026-11-26'), plain(formatPeriod(period))]).toEqual(['Nov 26, 2026', 'Oct 1 – Nov 26, 2026']);
  activate('fr');
  expect([formatDay('2026-11-26'), plain(formatPeriod(period))]).toEqual(['26 nov. 2026', '1 oct. – 26 nov. 2026']);
});

test('a day is the day the server meant, in every time zone', () => {
  // Read in UTC: a browser west of Greenwich would otherwise show October 31 for "2026-11-01".
  const zone = process.env.TZ;
  process.env.TZ = 'America/Los_Angeles';
  try {
    expect(formatDay('2026-11-01')).toBe('01.11.2026');
    expect(formatPeriod({ from: '2026-11-01', to: '2026-11-30' })).toBe('01.–30.11.2026');
  } finally {
    process.env.TZ = zone;
  }
  expect(formatDay('kein Datum')).toBe('kein Datum');
});

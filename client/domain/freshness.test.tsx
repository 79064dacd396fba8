import { describe, expect, test } from 'vitest';
import { aftercareEnded, byAttention, daysSince, daysUntil, freshness } from './freshness.ts';

const now = new Date('2026-11-22T12:00:00Z');
const ago = (days: number, hours = 0) => new Date(now.getTime() - (days * 24 + hours) * 3600_000).toISOString();

describe('freshness traffic light', () => {
  test('data from today or up to exactly 2 days ago is green', () => {
    expect(freshness(ago(0), now)).toBe('green');
    expect(freshness(ago(2), now)).toBe('green');
  });
  test('data older than 2 days and up to 7 days is yellow', () => {
    expect(freshness(ago(2, 1), now)).toBe('yellow');
    expect(freshness(ago(7), now)).toBe('yellow');
  });
  test('data older than 7 days and up to 30 days is red', () => {
    expect(freshness(ago(7, 1), now)).toBe('red');
    expect(freshness(ago(30), now)).toBe('red');
  });
  test('data older than 30 days is grey', () => {
    expect(freshness(ago(30, 1), now)).toBe('grey');
    expect(freshness(ago(400), now)).toBe('grey');
  });
  test('no data at all, or an unreadable date, is grey', () => {
    expect(freshness(null, now)).toBe('grey');
    expect(freshness(undefined, now)).toBe('grey');
    expect(freshness('not a date', now)).toBe('grey');
  });
});

test('patients needing attention come first: red, then yellow, then grey, then green, longest silence first', () => {
  const patients = [
    { id: 'g', last: ago(1) },
    { id: 'grey', last: null },
    { id: 'y', last: ago(3) },
    { id: 'r-short', last: ago(8) },
    { id: 'r-long', last: ago(20) },
  ];
  expect(byAttention(patients, (p) => p.last, now).map((p) => p.id)).toEqual(['r-long', 'r-short', 'y', 'grey', 'g']);
});

test('day counts are whole days and null without a date', () => {
  expect(daysSince(ago(3, 5), now)).toBe(3);
  expect(daysSince(null, now)).toBeNull();
  expect(daysUntil(new Date(now.getTime() + 5 * 86400_000).toISOString(), now)).toBe(5);
  expect(daysUntil('', now)).toBeNull();
});

test('aftercare has ended from the day after its last day on; without an end it has not', () => {
  expect(aftercareEnded('2026-11-22', now)).toBe(false);
  expect(aftercareEnded('2026-11-21', now)).toBe(true);
  expect(aftercareEnded('2027-01-31', now)).toBe(false);
  expect(aftercareEnded('', now)).toBe(false);
  expect(aftercareEnded(null, now)).toBe(false);
});

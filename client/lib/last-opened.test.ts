import { beforeEach, expect, test } from 'vitest';
import { lastOpenedReader, markOpened } from './last-opened.ts';

beforeEach(() => localStorage.clear());

test('remembers per coach when each patient was last opened on this device', () => {
  markOpened('coach-1', 'p1', new Date('2026-11-26T09:00:00Z'));
  markOpened('coach-1', 'p1', new Date('2026-11-26T10:00:00Z'));
  markOpened('coach-2', 'p2', new Date('2026-11-26T11:00:00Z'));
  expect(lastOpenedReader('coach-1')('p1')).toBe(Date.parse('2026-11-26T10:00:00Z'));
  expect(lastOpenedReader('coach-1')('p2')).toBeNull();
  expect(lastOpenedReader('coach-2')('p2')).toBe(Date.parse('2026-11-26T11:00:00Z'));
});

test('keeps only ids and times in storage, and forgets openings older than 90 days', () => {
  markOpened('coach-1', 'p-old', new Date('2026-07-01T09:00:00Z'));
  markOpened('coach-1', 'p-new', new Date('2026-11-26T09:00:00Z'));
  const stored = Object.keys(localStorage).map((key) => `${key}=${localStorage.getItem(key)}`);
  expect(stored).toEqual([`lastOpened:coach-1={"p-new":${Date.parse('2026-11-26T09:00:00Z')}}`]);
});

test('reads a damaged entry as nothing opened', () => {
  localStorage.setItem('lastOpened:coach-1', '[1,2');
  expect(lastOpenedReader('coach-1')('p1')).toBeNull();
});

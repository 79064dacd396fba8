import { expect, test } from 'vitest';
import { canExport, exportKinds } from './permissions.ts';
import { buildMe } from '../../test/helpers/client-fetch.ts';

const me = (flags: Record<string, boolean> = {}) => buildMe(flags) as Parameters<typeof exportKinds>[0];

test('every signed-in coach may export the patients and comments they may open', () => {
  expect(exportKinds(me())).toEqual(['patients', 'comments']);
  expect(canExport(me())).toBe(true);
});

test('health managers and administrators also export the statistics', () => {
  const all = ['patients', 'detailStatistics', 'comments', 'dailyFigures'];
  expect(exportKinds(me({ isHealthManager: true }))).toEqual(all);
  expect(exportKinds(me({ isAdmin: true }))).toEqual(all);
  expect(exportKinds(me({ isSuperAdmin: true }))).toEqual(all);
});

test('nobody signed out, and no locked account, exports anything', () => {
  expect(canExport(null)).toBe(false);
  expect(canExport(me({ isUserLocked: true }))).toBe(false);
});

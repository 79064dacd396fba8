import { expect } from 'vitest';
import { demoStorageTest } from '../../helpers/upstream-test.ts';

const now = new Date('2026-11-22T10:00:00.000Z');
const test = demoStorageTest(now);
// The demo data is seeded here, with a hook's time rather than the first test's.
test.beforeAll(({ storage: _ }) => {}, 60_000);

// A demo instance with comments "written" next week looks broken to the person trying it out.
test('no demo comment, external comment or access code is dated after the seeding moment', async ({ storage }) => {
  const later = (rows: { createdAt: unknown }[]) => rows.filter((r) => Date.parse(String(r.createdAt)) > now.getTime());
  const comments = await storage.db.selectFrom('comments').select(['createdAt']).execute();
  const external = await storage.db.selectFrom('external_comments').select(['createdAt']).execute();
  const tokens = await storage.db.selectFrom('patient_tokens').select(['createdAt']).execute();
  expect(comments.length).toBeGreaterThan(20);
  expect(external.length).toBeGreaterThan(10);
  expect(later(comments)).toEqual([]);
  expect(later(external)).toEqual([]);
  expect(later(tokens)).toEqual([]);
});

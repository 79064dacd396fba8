import { afterAll, beforeAll, expect, test } from 'vitest';
import { openStorage, type Storage } from '../../../server/upstream/db/index.ts';
import { seedDemo } from '../../../server/upstream/seed/demo.ts';

const now = new Date('2026-11-22T10:00:00.000Z');
let storage: Storage;

beforeAll(async () => {
  storage = await openStorage({ dataDir: ':memory:' });
  await seedDemo(storage.db, { now });
}, 60_000);
afterAll(() => storage.close());

// A demo instance with comments "written" next week looks broken to the person trying it out.
test('no demo comment, external comment or access code is dated after the seeding moment', async () => {
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

import { expect } from 'vitest';
import { demoStorageTest } from '../../helpers/upstream-test.ts';
import request from 'supertest';
import * as v from 'valibot';
import { createUpstreamApp } from '../../../server/upstream/app.ts';
import { issueToken } from '../../../server/upstream/features/auth/repository.ts';
import { SyncCollectionDataSchemas, type SyncCollection } from '../../../contract/schemas/sync-db.ts';
import { jsonQuery } from '../../helpers/upstream-rows.ts';

const now = new Date('2026-11-20T10:00:00.000Z');
const test = demoStorageTest(now);
// The demo data is seeded here, with a hook's time rather than the first test's.
test.beforeAll(({ storage: _ }) => {}, 60_000);

test('every seeded sync record fits the schema of its collection', async ({ storage }) => {
  const rows = await storage.db.selectFrom('sync_records').select(['collection', 'id', 'data']).execute();
  expect(rows.length).toBeGreaterThan(5000);
  const invalid = rows.filter((r) => !v.safeParse(SyncCollectionDataSchemas[r.collection as SyncCollection], JSON.parse(r.data)).success);
  expect(invalid.map((r) => `${r.collection}/${r.id}`)).toEqual([]);
});

test('seeded phone coachings carry their kind, so an English or French page shows them in its own language', async ({ storage }) => {
  const rows = await storage.db.selectFrom('sync_records').select(['id', 'data']).where('collection', '=', 'event').execute();
  const calls = rows.map((r) => JSON.parse(r.data)).filter((d) => d.type === 'phone-coaching');
  expect(calls.length).toBeGreaterThan(20);
  expect(calls.filter((d) => d.kind !== (d.done ? 'call-reached' : 'call-not-reached'))).toEqual([]);
});

test('most patients whose aftercare has begun have day-evaluations, with last data spread over the freshness bands', async ({ storage }) => {
  const patients = await storage.db.selectFrom('patients').select(['id', 'aftercareStart', 'lastDataAt']).execute();
  const started = patients.filter((p) => (p.aftercareStart as string) <= '2026-11-20');
  const withData = started.filter((p) => p.lastDataAt);
  expect(withData.length / started.length).toBeGreaterThan(0.7);
  const ageDays = withData.map((p) => (now.getTime() - Date.parse(p.lastDataAt as string)) / 86_400_000);
  expect(ageDays.some((d) => d <= 2)).toBe(true);
  expect(ageDays.some((d) => d > 2 && d <= 7)).toBe(true);
  expect(ageDays.some((d) => d > 7)).toBe(true);
  expect(ageDays.every((d) => d >= 0)).toBe(true);
});

test('the demo instance answers statistics, news and sync data through the API', async ({ storage }) => {
  const app = createUpstreamApp({ db: storage.db, clock: { now: () => now }, logRequests: false });
  const auth = async (coachId: string) => `Bearer ${(await issueToken(app.upstream, coachId, 'access', 3600)).token}`;
  const coach = await auth('coach-demo');
  const news = await request(app).get('/v2/news').set('Authorization', coach);
  expect(news.body.filter((n: { read: boolean }) => !n.read)).toHaveLength(3);

  const health = await auth('coach-health');
  const calls = await request(app)
    .get('/v2/statistics/phone-coachings')
    .set('Authorization', health)
    .query(jsonQuery({ from: '2026-08-23', to: '2026-11-20' }));
  expect(calls.body.reduce((sum: number, d: { count: number }) => sum + d.count, 0)).toBeGreaterThan(50);
  const daily = await request(app)
    .get('/v2/statistics/daily-patients-in-aftercare')
    .set('Authorization', health)
    .query(jsonQuery({ from: '2026-11-20', to: '2026-11-20' }));
  expect(daily.body[0].count).toBeGreaterThan(10);

  const synced = await storage.db.selectFrom('synced_patients').select('patientId').limit(1).executeTakeFirstOrThrow();
  const admin = await auth('coach-admin');
  const evaluations = await request(app).get(`/v2/patients/${synced.patientId}/sync-db/day-evaluation`).set('Authorization', admin);
  expect(evaluations.status).toBe(200);
  expect(Number(evaluations.headers['x-total-count'])).toBeGreaterThan(0);
  expect(Number(evaluations.headers['x-total-count'])).toBeLessThanOrEqual(90);
});

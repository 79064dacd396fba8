import { afterEach, describe, expect, test } from 'vitest';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { openStorage } from '../../../server/upstream/db/index.ts';
import { createUpstreamApp } from '../../../server/upstream/app.ts';
import { prepareData } from '../../../server/upstream/seed/index.ts';
import { seedDemo } from '../../../server/upstream/seed/demo.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'upstream-persist-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const now = new Date('2026-11-22T09:00:00.000Z');

test('data written through the API survives closing and reopening the data folder', async () => {
  const dataDir = tempDir();
  let storage = await openStorage({ dataDir });
  await prepareData(storage.db, { demoData: true, now });
  let app = createUpstreamApp({ db: storage.db, dataDir, logRequests: false });
  const login = async () => (await request(app).post('/v2/auth/login').send({ email: 'admin@example.org', password: 'Demo-Passwort-1' })).body.id as string;
  let token = await login();
  const created = await request(app)
    .post('/v2/devices')
    .set('Authorization', `Bearer ${token}`)
    .send({ name: 'Waage', type: 'scale', serialNumber: 'WB-9999' });
  expect(created.status).toBe(201);
  await storage.close();
  if (storage.dialect === 'sqlite') expect(existsSync(path.join(dataDir, 'upstream.sqlite'))).toBe(true);

  storage = await openStorage({ dataDir });
  await prepareData(storage.db, { demoData: true, now });
  app = createUpstreamApp({ db: storage.db, dataDir, logRequests: false });
  // The session token is stored too (as a hash), so it still works after the restart.
  const res = await request(app).get(`/v2/devices/${created.body.id}`).set('Authorization', `Bearer ${token}`);
  expect(res.status).toBe(200);
  expect(res.body.serialNumber).toBe('WB-9999');
  // Demo data was not seeded a second time.
  token = await login();
  const coaches = await request(app).get('/v2/coaches').set('Authorization', `Bearer ${token}`);
  expect(coaches.body.filter((c: { email: string }) => c.email === 'admin@example.org')).toHaveLength(1);
  await storage.close();
});

// SQLite only: with DATABASE_URL set (the PostgreSQL run in .ci/run) there is no database file.
test.skipIf(!!process.env.DATABASE_URL)('the database file runs in WAL mode', async () => {
  const dataDir = tempDir();
  const storage = await openStorage({ dataDir });
  await storage.db.insertInto('diagnoses').values({ id: 'd', code: 'I10', label: 'Hypertonie' }).execute();
  expect(existsSync(path.join(dataDir, 'upstream.sqlite-wal'))).toBe(true);
  await storage.close();
});

describe('first start', () => {
  test('with demo data on, seeds the four docs/contract.md#demo-accounts accounts and a German instance', async () => {
    const storage = await openStorage({ dataDir: ':memory:' });
    await prepareData(storage.db, { demoData: true, now });
    const emails = await storage.db.selectFrom('coaches').select(['email', 'isAdmin', 'isHealthManager', 'isUserLocked']).execute();
    expect(emails).toEqual(
      expect.arrayContaining([
        { email: 'admin@example.org', isAdmin: 1, isHealthManager: 0, isUserLocked: 0 },
        { email: 'coach@example.org', isAdmin: 0, isHealthManager: 0, isUserLocked: 0 },
        { email: 'health@example.org', isAdmin: 0, isHealthManager: 1, isUserLocked: 0 },
        { email: 'locked@example.org', isAdmin: 0, isHealthManager: 0, isUserLocked: 1 },
      ]),
    );
    expect(emails.length).toBeGreaterThanOrEqual(8);
    const patients = await storage.db.selectFrom('patients').selectAll().execute();
    expect(patients).toHaveLength(60);
    const today = now.toISOString().slice(0, 10);
    const active = patients.filter((p) => p.aftercareStart <= today && today <= p.aftercareEnd);
    const completed = patients.filter((p) => p.aftercareEnd < today);
    expect(active.length).toBeGreaterThan(10);
    expect(completed.length).toBeGreaterThan(5);
    expect(patients.filter((p) => p.primaryCoachId === 'coach-demo').length).toBeGreaterThanOrEqual(10);
    const codes = (await storage.db.selectFrom('diagnoses').select('code').execute()).map((d) => d.code);
    expect(codes).toEqual(expect.arrayContaining(['F32.1', 'F33.1', 'F10.2', 'M54.5', 'I25.1', 'G35']));
    for (const table of ['comments', 'external_comments', 'devices', 'surveys', 'cost_rates', 'replication_endpoints', 'patient_tokens'] as const) {
      const count = await storage.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(count.n), table).toBeGreaterThan(0);
    }
    await storage.close();
  });

  test('demo data is the same on every run', async () => {
    const a = await openStorage({ dataDir: ':memory:' });
    const b = await openStorage({ dataDir: ':memory:' });
    await seedDemo(a.db, { now });
    await seedDemo(b.db, { now });
    const rows = async (s: typeof a) => await s.db.selectFrom('patients').selectAll().orderBy('id').execute();
    expect(await rows(a)).toEqual(await rows(b));
    await a.close();
    await b.close();
  });

  test('with demo data off, creates the administrator from ADMIN_EMAIL and ADMIN_PASSWORD', async () => {
    const storage = await openStorage({ dataDir: ':memory:' });
    await prepareData(storage.db, { demoData: false, adminEmail: 'Chefin@Example.org', adminPassword: 'Sehr-Geheim-1', now });
    const app = createUpstreamApp({ db: storage.db, logRequests: false });
    const res = await request(app).post('/v2/auth/login').send({ email: 'chefin@example.org', password: 'Sehr-Geheim-1' });
    expect(res.status).toBe(200);
    expect(res.body.user.isAdmin).toBe(true);
    const count = await storage.db
      .selectFrom('patients')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
    await storage.close();
  });

  test('with demo data off and no administrator, fails with one line that says what to set', async () => {
    const storage = await openStorage({ dataDir: ':memory:' });
    await expect(prepareData(storage.db, { demoData: false, now })).rejects.toThrow(/^No administrator exists: set ADMIN_EMAIL and ADMIN_PASSWORD/);
    await storage.close();
  });
});

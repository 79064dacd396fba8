import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { KyselyPlugin } from 'kysely';
import { openStorage, type Storage } from '../../server/upstream/db/index.ts';
import { createUpstreamApp, type UpstreamOptions } from '../../server/upstream/app.ts';
import { hashPassword } from '../../server/upstream/lib/secrets.ts';
import type { Clock } from '../../server/upstream/lib/clock.ts';
import { workAfterAnswers } from '../../server/upstream/lib/after-answer.ts';

export const PASSWORD = 'Demo-Passwort-1';

/** A clock the test moves by hand. */
export function manualClock(start = new Date('2026-11-22T09:00:00.000Z')): Clock & { advance(seconds: number): void; set(date: Date): void } {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(seconds: number) {
      now += seconds * 1000;
    },
    set(date: Date) {
      now = date.getTime();
    },
  };
}

let passwordHash: Promise<string> | undefined;

/**
 * The known small world every upstream test starts from: the four docs/contract.md#demo-accounts accounts (ids admin, coach,
 * health, locked) and coach2 (email not verified); patient p1 of coach, p2 and p3 of coach2; one piece of
 * each reference data; comment c1 (by coach on p1) and c2 (by coach2 on p2); external comments x1 (p1)
 * and x2 (p2); sync state for p1 and p2.
 */
export async function seedFixture(storage: Storage, at: string) {
  passwordHash ??= hashPassword(PASSWORD);
  const hash = await passwordHash;
  const base = {
    title: '',
    phone: '',
    passwordHash: hash,
    isSuperAdmin: 0 as const,
    emailVerified: 1 as const,
    language: 'de',
    trialEndsAt: null,
    createdAt: at,
    updatedAt: at,
  };
  const coach = (id: string, email: string, flags: Partial<{ isAdmin: 0 | 1; isHealthManager: 0 | 1; isUserLocked: 0 | 1 }> = {}) => ({
    ...base,
    id,
    email,
    firstName: id,
    lastName: 'Test',
    isAdmin: 0 as const,
    isHealthManager: 0 as const,
    isUserLocked: 0 as const,
    ...flags,
  });
  await storage.db
    .insertInto('coaches')
    .values([
      coach('admin', 'admin@example.org', { isAdmin: 1 }),
      coach('coach', 'coach@example.org'),
      coach('health', 'health@example.org', { isHealthManager: 1 }),
      coach('locked', 'locked@example.org', { isUserLocked: 1 }),
      { ...coach('coach2', 'coach2@example.org'), emailVerified: 0 as const },
    ])
    .execute();
  await storage.db
    .insertInto('diagnoses')
    .values([
      { id: 'dx-f33', code: 'F33.1', label: 'Rezidivierende depressive Störung, gegenwärtig mittelgradige Episode' },
      { id: 'dx-m54', code: 'M54.5', label: 'Kreuzschmerz' },
    ])
    .execute();
  await storage.db
    .insertInto('cost_rates')
    .values({ id: 'rate-1', name: 'IRENA Einzel', amountCents: 3500, unit: 'session', createdAt: at, updatedAt: at })
    .execute();
  await storage.db
    .insertInto('replication_endpoints')
    .values({ id: 'repl-1', name: 'Hauptserver', protocol: 'https', host: 'sync.example.org', port: 443, path: '/replicate', createdAt: at, updatedAt: at })
    .execute();
  await storage.db
    .insertInto('surveys')
    .values({
      id: 'survey-1',
      title: 'Befinden',
      description: '',
      active: 1,
      createdAt: at,
      updatedAt: at,
      questions: JSON.stringify([{ id: 'mood', text: 'Wie geht es Ihnen?', type: 'scale', min: 1, max: 5 }]),
    })
    .execute();
  await storage.db
    .insertInto('devices')
    .values({ id: 'dev-1', name: 'Fitbit Inspire 3', type: 'activity-tracker', serialNumber: 'FB-0001', createdAt: at, updatedAt: at })
    .execute();
  const patient = (id: string, code: string, lastName: string, primaryCoachId: string, start: string, end: string) => ({
    id,
    patientCode: code,
    firstName: 'Eva',
    lastName,
    birthDate: '1970-05-04',
    gender: 'female',
    email: null,
    phone: null,
    clinic: 'Reha-Zentrum Bad Kissingen',
    aftercareStart: start,
    aftercareEnd: end,
    primaryCoachId,
    diagnosisIds: '["dx-f33"]',
    costRateId: 'rate-1',
    appointments: '[]',
    lastDataAt: null,
    createdAt: at,
    updatedAt: at,
  });
  await storage.db
    .insertInto('patients')
    .values([
      patient('p1', 'AB-2345', 'Müller', 'coach', '2026-09-01', '2027-02-28'),
      patient('p2', 'CD-6789', 'Schmidt', 'coach2', '2026-06-01', '2026-10-31'),
      patient('p3', 'EF-2468', 'Becker', 'coach2', '2026-12-01', '2027-05-31'),
    ])
    .execute();
  await storage.db
    .insertInto('comments')
    .values([
      { id: 'c1', patientId: 'p1', authorId: 'coach', text: 'Erstgespräch geführt.', createdAt: at, updatedAt: at },
      { id: 'c2', patientId: 'p2', authorId: 'coach2', text: 'Rückruf vereinbart.', createdAt: at, updatedAt: at },
    ])
    .execute();
  await storage.db
    .insertInto('synced_patients')
    .values([
      { id: 'p1', patientId: 'p1', patientCode: 'AB-2345', lastSyncAt: at, recordCount: 12, lastDayEvaluationDate: '2026-11-21' },
      { id: 'p2', patientId: 'p2', patientCode: 'CD-6789', lastSyncAt: at, recordCount: 3, lastDayEvaluationDate: null },
    ])
    .execute();
  await storage.db
    .insertInto('external_comments')
    .values([
      { id: 'x1', patientId: 'p1', source: 'clinic', author: 'Dr. med. A. Krüger', text: 'Entlassbrief liegt vor.', createdAt: at },
      { id: 'x2', patientId: 'p2', source: 'patient-app', author: 'Patientin', text: 'Mir geht es besser.', createdAt: at },
    ])
    .execute();
}

/**
 * One more coach with the fixture's password, e.g. the super administrators the fixture lacks:
 * `addCoach(t.storage, 'super', { isAdmin: 1, isSuperAdmin: 1 })` signs in as super@example.org.
 */
export async function addCoach(
  storage: Storage,
  id: string,
  flags: Partial<{ isAdmin: 0 | 1; isSuperAdmin: 0 | 1; isUserLocked: 0 | 1; firstName: string; lastName: string }> = {},
) {
  passwordHash ??= hashPassword(PASSWORD);
  const at = '2026-11-22T09:00:00.000Z';
  await storage.db
    .insertInto('coaches')
    .values({
      id,
      email: `${id}@example.org`,
      firstName: id,
      lastName: 'Test',
      title: '',
      phone: '',
      passwordHash: await passwordHash,
      isAdmin: 0,
      isSuperAdmin: 0,
      isHealthManager: 0,
      isUserLocked: 0,
      emailVerified: 1,
      language: 'de',
      trialEndsAt: null,
      createdAt: at,
      updatedAt: at,
      ...flags,
    })
    .execute();
}

export interface TestUpstream {
  app: ReturnType<typeof createUpstreamApp>;
  storage: Storage;
  dataDir: string;
  clock: ReturnType<typeof manualClock>;
  /** Logs in and returns the bearer token. */
  login(email: string, password?: string): Promise<string>;
  /** Files in the outbox, oldest first, with their text. */
  outbox(): { name: string; text: string }[];
  /** Resolves once the work the upstream does after an answer (forgot-password's mail) has ended. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** A fresh upstream on an in-memory database (or dataDir) with the fixture; outbox in a temp folder. */
export async function createTestUpstream(
  options: Partial<UpstreamOptions> & { dataDir?: string; fixture?: boolean; dbPlugin?: KyselyPlugin } = {},
): Promise<TestUpstream> {
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'upstream-test-'));
  const storage = await openStorage({ dataDir: ownDir ? ':memory:' : dataDir });
  const clock = manualClock();
  if (options.fixture ?? true) await seedFixture(storage, clock.now().toISOString());
  // On PostgreSQL the rate limits count in the database, as in production.
  const { dbPlugin, ...upstreamOptions } = options;
  // A plugin (tests that watch the queries) sees the app's queries only, not the fixture's.
  const db = dbPlugin ? storage.db.withPlugin(dbPlugin) : storage.db;
  const app = createUpstreamApp({ db, dataDir, clock, logRequests: false, pool: storage.pool, ...upstreamOptions });
  const outboxDir = app.upstream.outboxDir;
  return {
    app,
    storage,
    dataDir,
    clock,
    async login(email, password = PASSWORD) {
      const res = await request(app).post('/v2/auth/login').send({ email, password });
      if (res.status !== 200) throw new Error(`login ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.id as string;
    },
    outbox() {
      let names: string[] = [];
      try {
        names = readdirSync(outboxDir).sort();
      } catch {
        return [];
      }
      return names.map((name) => ({ name, text: readFileSync(path.join(outboxDir, name), 'utf8') }));
    },
    settled: () => workAfterAnswers(app.upstream),
    async close() {
      await workAfterAnswers(app.upstream);
      await storage.close();
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

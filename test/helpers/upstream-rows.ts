import { test } from 'vitest';
import { createUpstreamApp } from '../../server/upstream/app.ts';
import { openStorage } from '../../server/upstream/db/index.ts';
import { issueToken } from '../../server/upstream/features/auth/repository.ts';

/*
 * Builders for the tests of the news, system, app-settings, statistics, patient-extras and sync-db
 * families: an upstream on an in-memory database with a pinned clock, and rows inserted directly
 * (no password hashing, no HTTP), so each test states exactly the data it counts on.
 */

export type Role = 'admin' | 'coach' | 'health';

export interface TestCoach {
  id: string;
  /** Value for the Authorization header. */
  auth: string;
}

export interface PatientInput {
  id: string;
  aftercareStart: string;
  aftercareEnd: string;
  primaryCoachId?: string | null;
  lastDataAt?: string | null;
  firstName?: string;
  lastName?: string;
}

export async function upstreamWithRows(options: { now?: string } = {}) {
  const storage = await openStorage({ dataDir: ':memory:' });
  let now = new Date(options.now ?? '2026-06-15T10:00:00.000Z');
  const clock = { now: () => new Date(now) };
  // These tests move the clock by days; the coaches' sessions are not what they are about, so they outlast it.
  const app = createUpstreamApp({ db: storage.db, clock, logRequests: false, session: { idleMinutes: 7 * 24 * 60, maxHours: 365 * 24 } });
  const db = storage.db;
  const at = now.toISOString();
  let counter = 0;

  async function coach(role: Role = 'coach', id = `coach-${++counter}`): Promise<TestCoach> {
    await db
      .insertInto('coaches')
      .values({
        id,
        email: `${id}@example.org`,
        firstName: 'Vor',
        lastName: `Name ${id}`,
        title: '',
        phone: '',
        passwordHash: null,
        isAdmin: role === 'admin' ? 1 : 0,
        isSuperAdmin: 0,
        isHealthManager: role === 'health' ? 1 : 0,
        isUserLocked: 0,
        emailVerified: 1,
        language: 'de',
        trialEndsAt: null,
        createdAt: at,
        updatedAt: at,
      })
      .execute();
    const { token } = await issueToken(app.upstream, id, 'access', 365 * 24 * 3600);
    return { id, auth: `Bearer ${token}` };
  }

  async function patient(input: PatientInput): Promise<string> {
    await db
      .insertInto('patients')
      .values({
        id: input.id,
        patientCode: `PC-${input.id}`,
        firstName: input.firstName ?? 'Erika',
        lastName: input.lastName ?? `Muster ${input.id}`,
        birthDate: '1970-01-01',
        gender: 'female',
        email: null,
        phone: null,
        clinic: 'Reha-Klinik',
        aftercareStart: input.aftercareStart,
        aftercareEnd: input.aftercareEnd,
        primaryCoachId: input.primaryCoachId ?? null,
        diagnosisIds: '[]',
        costRateId: null,
        appointments: '[]',
        lastDataAt: input.lastDataAt ?? null,
        createdAt: at,
        updatedAt: at,
      } as never)
      .execute();
    return input.id;
  }

  return {
    app,
    db,
    coach,
    patient,
    /** Moves the pinned clock. */
    setNow: (iso: string) => {
      now = new Date(iso);
    },
    close: () => storage.close(),
  };
}

export type RowsUpstream = Awaited<ReturnType<typeof upstreamWithRows>>;

/**
 * `u`: one upstreamWithRows(options) for every test of a file, closed after its last test. A file's coaches and rows
 * are file fixtures built on it; `auto: true` creates them in the order declared, before the first test.
 */
export const fileRowsTest = (options: { now?: string } = {}) =>
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixtures a fixture needs from its first parameter
  test.extend('u', { scope: 'file' }, async ({}, { onCleanup }): Promise<RowsUpstream> => {
    const u = await upstreamWithRows(options);
    onCleanup(() => u.close());
    return u;
  });

/** Query values JSON-encoded as docs/contract.md#transport requires: { from: '2026-06-01' } -> from="2026-06-01". */
export function jsonQuery(values: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, JSON.stringify(v)]));
}

/** One valid `data` per sync collection, for table-driven tests. */
export const syncSamples = {
  'day-evaluation': { date: '2026-06-01', mood: 4, sleep: 3, stress: 2, pain: 1, notes: 'Guter Tag' },
  'day-stats': { date: '2026-06-01', steps: 8432, activeMinutes: 47, sleepMinutes: 410, restingHeartRate: 62 },
  event: { type: 'phone-coaching', title: 'Telefoncoaching', start: '2026-06-01T08:00:00.000Z', durationMinutes: 30, done: true },
  'event-template': { type: 'exercise', title: 'Spaziergang', durationMinutes: 30, recurrence: 'weekly', weekdays: [1, 3, 5] },
  form: { title: 'Notfallplan', fields: [{ key: 'contact', label: 'Vertrauensperson', value: 'Schwester' }] },
  internal: { onboardingDone: true, lastScreen: 'home' },
  'life-section': { name: 'Arbeit', goal: 'Stufenweise Wiedereingliederung', priority: 5, satisfaction: 2 },
  settings: { reminderTime: '20:00', language: 'de', notificationsEnabled: true, shareDayStats: true },
  survey: { surveyId: 'survey-1', assignedAt: '2026-06-01T07:00:00.000Z', dueDate: '2026-06-07', status: 'open' },
  'survey-result': { surveyId: 'survey-1', completedAt: '2026-06-01T18:00:00.000Z', answers: [{ questionId: 'q1', value: 3 }] },
  timeframe: { title: 'Erste Arbeitswochen', start: '2026-06-01', end: '2026-06-28', goal: 'Pausen einhalten' },
  'timeframe-evaluation': { timeframeId: 'tf-1', date: '2026-06-01', rating: 4, notes: '' },
} as const;

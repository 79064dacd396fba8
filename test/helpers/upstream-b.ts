import { createUpstreamApp } from '../../server/upstream/app.ts';
import { openStorage } from '../../server/upstream/db/index.ts';
import { issueToken } from '../../server/upstream/lib/tokens.ts';

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

export async function upstreamB(options: { now?: string } = {}) {
  const storage = await openStorage({ dataDir: ':memory:' });
  let now = new Date(options.now ?? '2026-06-15T10:00:00.000Z');
  const clock = { now: () => new Date(now) };
  const app = createUpstreamApp({ db: storage.db, clock, logRequests: false });
  const db = storage.db;
  const at = now.toISOString();
  let counter = 0;

  async function coach(role: Role = 'coach', id = `coach-${++counter}`): Promise<TestCoach> {
    await db.insertInto('coaches').values({
      id, email: `${id}@example.org`, firstName: 'Vor', lastName: `Name ${id}`, title: '', phone: '', passwordHash: null,
      isAdmin: role === 'admin' ? 1 : 0, isSuperAdmin: 0, isHealthManager: role === 'health' ? 1 : 0,
      isUserLocked: 0, emailVerified: 1, language: 'de', trialEndsAt: null, createdAt: at, updatedAt: at,
    }).execute();
    const { token } = await issueToken(app.upstream, id, 'access', 3600);
    return { id, auth: `Bearer ${token}` };
  }

  async function patient(input: PatientInput): Promise<string> {
    await db.insertInto('patients').values({
      id: input.id, patientCode: `PC-${input.id}`, firstName: input.firstName ?? 'Erika', lastName: input.lastName ?? `Muster ${input.id}`,
      birthDate: '1970-01-01', gender: 'female', email: null, phone: null, clinic: 'Reha-Klinik',
      aftercareStart: input.aftercareStart, aftercareEnd: input.aftercareEnd, primaryCoachId: input.primaryCoachId ?? null,
      diagnosisIds: '[]', costRateId: null, appointments: '[]', lastDataAt: input.lastDataAt ?? null, createdAt: at, updatedAt: at,
    } as never).execute();
    return input.id;
  }

  return {
    app,
    db,
    coach,
    patient,
    /** Moves the pinned clock. */
    setNow: (iso: string) => { now = new Date(iso); },
    close: () => storage.close(),
  };
}

import { PostgresAdapter, sql } from 'kysely';
import type { Db } from '../db/index.ts';
import type { CoachTable, PatientTable } from '../db/types.ts';
import type { SyncRecordTable } from '../db/family-types.ts';
import { addDays, dayOf } from '../lib/days.ts';
import { hashPassword } from '../lib/secrets.ts';
import { insertCoaches } from '../features/coaches/repository.ts';
import { insertComments } from '../features/comments/repository.ts';
import { insertCareTeamLinks, insertPatients } from '../features/patients/repository.ts';
import { insertRecords, type SyncState } from '../features/sync-data/repository.ts';
import { withCountsAfter } from '../db/bulk-load.ts';
import { fillRowIds, pseudonymKey, rowIdOf } from '../features/statistics/row-ids.ts';
import { toStoredRecord } from '../features/sync-data/rules.ts';
import { DEMO_PASSWORD, makePatients } from './demo.ts';
import { COMMENTS, FEMALE_NAMES, LAST_NAMES, MALE_NAMES } from './names.ts';
import { clamp, evening } from './app-use.ts';
import { between, pick, seededRandom, type Random } from './random.ts';

/*
 * A large instance on top of the demo one (npm run seed -- --patients N): generated coaches in teams, each patient
 * with a primary coach and often colleagues of the same team in the care team, notes by the team, and the app's
 * sync state with the last day's records. Everything goes in with the repositories' bulk inserts in one
 * transaction, so 100,000 patients take seconds, not hours. Deterministic for a given N.
 */

/** A coach looks after about this many patients; teams of this many coaches share their patients' care. */
export const PATIENTS_PER_COACH = 250;
export const TEAM_SIZE = 5;
const SEED = 20261126;

export interface ScaleSeedResult {
  coaches: number;
  patients: number;
  careTeamLinks: number;
  comments: number;
  syncedPatients: number;
  syncRecords: number;
}

/** Generated coaches: scale-coach-0001 ... with addresses coach-0001@scale.example.org, the demo password. */
function makeCoaches(random: Random, count: number, passwordHash: string, at: string): CoachTable[] {
  return Array.from({ length: count }, (_, i) => {
    const number = String(i + 1).padStart(4, '0');
    const female = random() < 0.6;
    return {
      id: `scale-coach-${number}`,
      email: `coach-${number}@scale.example.org`,
      firstName: pick(random, female ? FEMALE_NAMES : MALE_NAMES),
      lastName: pick(random, LAST_NAMES),
      title: pick(random, ['Dipl.-Psych.', 'Sozialarbeiterin', 'Sporttherapeut', 'Psychologin (M.Sc.)', 'Ernährungsberater']),
      phone: `030 7770${number}`,
      passwordHash,
      isAdmin: 0,
      isSuperAdmin: 0,
      isHealthManager: 0,
      isUserLocked: 0,
      emailVerified: 1,
      language: 'de',
      trialEndsAt: null,
      createdAt: at,
      updatedAt: at,
    };
  });
}

interface Generated {
  links: { patientId: string; coachId: string; createdAt: string }[];
  comments: Record<string, unknown>[];
  records: SyncRecordTable[];
  states: SyncState[];
}

/** Colleagues of the primary coach's team join the care team: a third of the patients have one, some two. */
function addCareTeam(g: Generated, p: PatientTable, coachIds: string[], random: Random, at: string): void {
  const primary = p.primaryCoachId as string | null;
  if (!primary) return;
  const index = coachIds.indexOf(primary);
  const team = Math.floor(index / TEAM_SIZE) * TEAM_SIZE;
  const colleagues = coachIds.slice(team, team + TEAM_SIZE).filter((id) => id !== primary);
  const wanted = random() < 0.33 ? (random() < 0.2 ? 2 : 1) : 0;
  for (const coachId of colleagues.slice(0, wanted)) g.links.push({ patientId: p.id, coachId, createdAt: at });
}

/** Up to four notes over the aftercare so far, by the primary coach. */
function addComments(g: Generated, p: PatientTable, now: Date, random: Random): void {
  const start = new Date(`${p.aftercareStart}T09:00:00.000Z`).getTime();
  if (start > now.getTime()) return;
  const span = now.getTime() - start;
  for (let c = 0, n = between(random, 0, 4); c < n; c++) {
    const when = new Date(start + Math.floor(((c + 1) / (n + 1)) * span)).toISOString();
    g.comments.push({
      id: `${p.id}-com-${c}`,
      patientId: p.id,
      authorId: p.primaryCoachId ?? null,
      text: pick(random, COMMENTS),
      createdAt: when,
      updatedAt: when,
    });
  }
}

/** Most patients in aftercare used the app lately: the last day's evaluation and stats, and the sync state they leave. */
function addAppUse(g: Generated, p: PatientTable, today: string, random: Random): void {
  if ((p.aftercareStart as string) > today || random() < 0.15) return;
  const last = addDays(today, -pick(random, [0, 0, 0, 1, 1, 2, 3, 5, 9, 20]));
  if (last < (p.aftercareStart as string)) return;
  const mood = between(random, 1, 5);
  const at = evening(last, random);
  g.records.push(
    toStoredRecord(p.id, 'day-evaluation', `de-${last}`, { date: last, mood, sleep: clamp(mood + random() - 0.5, 1, 5), stress: 3, pain: null, notes: '' }, at),
  );
  g.records.push(
    toStoredRecord(
      p.id,
      'day-stats',
      `ds-${last}`,
      { date: last, steps: between(random, 800, 15000), activeMinutes: between(random, 5, 90), sleepMinutes: null, restingHeartRate: null },
      at,
    ),
  );
  p.lastDataAt = at;
  g.states.push({ patientId: p.id, patientCode: p.patientCode as string, lastSyncAt: at, recordCount: 2, lastDayEvaluationDate: last });
}

/** Adds `count` generated patients (and their coaches, care teams, notes and app data) to a seeded instance. */
export async function seedScale(db: Db, options: { patients: number; now?: Date }): Promise<ScaleSeedResult> {
  const now = options.now ?? new Date();
  const at = now.toISOString();
  const today = dayOf(now);
  const random = seededRandom(SEED + options.patients);
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const coaches = makeCoaches(random, Math.max(TEAM_SIZE, Math.ceil(options.patients / PATIENTS_PER_COACH)), passwordHash, at);
  const coachIds = coaches.map((c) => c.id);
  // The statistics' pseudonyms with the rows: filled in afterwards, each update went into every index of the table
  // again (46 s of a 100,000-patient seed on PostgreSQL).
  const key = await pseudonymKey(db);
  const load = () =>
    db.transaction().execute(async (trx) => {
      const taken = (await trx.selectFrom('patients').select('patientCode').execute()).map((p) => p.patientCode as string);
      const patients = makePatients(random, now, options.patients, coachIds, 'scale', taken).map((p) => ({ ...p, statisticsRowId: rowIdOf(key, p.id) }));
      const g: Generated = { links: [], comments: [], records: [], states: [] };
      for (const p of patients) {
        addCareTeam(g, p, coachIds, random, at);
        addComments(g, p, now, random);
        addAppUse(g, p, today, random);
      }
      await insertCoaches(trx, coaches);
      await insertPatients(trx, patients);
      await insertCareTeamLinks(trx, g.links);
      await insertComments(trx, g.comments);
      await insertRecords(trx, g.records, g.states, { patientsHaveLastData: true });
      return {
        coaches: coaches.length,
        patients: patients.length,
        careTeamLinks: g.links.length,
        comments: g.comments.length,
        syncedPatients: g.states.length,
        syncRecords: g.records.length,
      };
    });
  const result = await withCountsAfter(db, async () => {
    const loaded = await load();
    // The demo instance's pseudonyms too, not on the first statistics call.
    await fillRowIds(db, () => pseudonymKey(db));
    return loaded;
  });
  // The planner's statistics, as after any bulk load: without them it guesses how selective a coach or a name is.
  // PostgreSQL also vacuums, as after any bulk load: its visibility map lets a count or a page be read from an index
  // alone, instead of visiting every row the index names.
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`vacuum analyze`.execute(db);
  else await sql`analyze`.execute(db);
  return result;
}

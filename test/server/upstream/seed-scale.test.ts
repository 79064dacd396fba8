import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { test as baseTest, describe, expect } from 'vitest';
import request from 'supertest';
import { sql } from 'kysely';
import { createUpstreamApp } from '../../../server/upstream/app.ts';
import { openStorage, type Storage } from '../../../server/upstream/db/index.ts';
import { prepareData } from '../../../server/upstream/seed/index.ts';
import { seedScale, TEAM_SIZE, type ScaleSeedResult } from '../../../server/upstream/seed/scale.ts';
import { issueToken } from '../../../server/upstream/features/auth/repository.ts';
import { pseudonymKey, rowIdOf } from '../../../server/upstream/features/statistics/row-ids.ts';

const now = new Date('2026-11-20T10:00:00.000Z');
const DEMO_PATIENTS = 60;
const N = 1500;

// `storage`: the demo instance with N patients more; `result`: what the scale seed reported.
const test = baseTest
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixtures a fixture needs from its first parameter
  .extend('storage', { scope: 'file' }, async ({}, { onCleanup }): Promise<Storage> => {
    const storage = await openStorage({ dataDir: ':memory:' });
    onCleanup(() => storage.close());
    await prepareData(storage.db, { demoData: true, now });
    return storage;
  })
  .extend('result', { scope: 'file' }, async ({ storage }): Promise<ScaleSeedResult> => {
    indexesBefore = await patientIndexes(storage);
    return seedScale(storage.db, { patients: N, now });
  });

/** The patient table's indexes as the database describes them (PostgreSQL's bulk load drops and remakes them). */
async function patientIndexes(storage: Storage): Promise<string[]> {
  const { rows } = process.env.DATABASE_URL
    ? await sql<{ d: string }>`select pg_get_indexdef(indexrelid) as d from pg_index where indrelid = 'patients'::regclass`.execute(storage.db)
    : await sql<{ d: string }>`select sql as d from sqlite_master where type = 'index' and tbl_name = 'patients'`.execute(storage.db);
  return rows.map((r) => String(r.d)).sort();
}
let indexesBefore: string[] = [];

describe('the scale seed', () => {
  // Seeding takes seconds: it runs here, with a hook's time rather than the first test's.
  test.beforeAll(({ result: _ }) => {}, 120_000);

  test('adds N patients to the demo instance, with a coach for every 250 of them and notes and app data', async ({ storage, result }) => {
    const count = async (table: 'patients' | 'comments' | 'synced_patients' | 'sync_records') =>
      Number(
        (
          await storage.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count('patients')).toBe(DEMO_PATIENTS + N);
    expect(result.coaches).toBe(6);
    const generated = await storage.db.selectFrom('comments').select('id').where('id', 'like', 'scale-%').execute();
    expect(generated.length).toBe(result.comments);
    expect(result.comments).toBeGreaterThan(N);
    expect(result.syncedPatients / N).toBeGreaterThan(0.5);
    expect(await count('sync_records')).toBeGreaterThan(result.syncRecords);
    const withData = await storage.db.selectFrom('patients').select('id').where('id', 'like', 'scale-%').where('lastDataAt', 'is not', null).execute();
    expect(withData.length).toBe(result.syncedPatients);
  });

  test('the counts kept by triggers are there as if every patient and record had been written one by one', async ({ storage, result: _ }) => {
    const db = storage.db;
    const { rows: totals } = await sql<{ patientId: string; e: number; c: number; m: number }>`select "patientId",
        sum(case when collection = 'day-evaluation' then 1 else 0 end) as e,
        sum(case when collection = 'event' and type = 'phone-coaching' and done = 1 then 1 else 0 end) as c,
        sum(case when collection = 'event' and type = 'phone-coaching' and done = 1 and minutes > 0 then minutes else 0 end) as m
      from sync_records group by "patientId" having sum(case when collection = 'day-evaluation' or (collection = 'event' and type = 'phone-coaching' and done = 1) then 1 else 0 end) > 0
      order by "patientId"`.execute(db);
    const stored = await db
      .selectFrom('patient_figure_totals')
      .innerJoin('patients', 'patients.id', 'patient_figure_totals.patientId')
      .select(['patientId', 'dayEvaluations', 'calls', 'callMinutes', 'patient_figure_totals.statisticsRowId as copy', 'patients.statisticsRowId'])
      .orderBy('patientId')
      .execute();
    expect(stored.map((r) => [r.patientId, Number(r.dayEvaluations), Number(r.calls), Number(r.callMinutes)])).toEqual(
      totals.map((r) => [r.patientId, Number(r.e), Number(r.c), Number(r.m)]),
    );
    for (const row of stored) expect(row.copy).toBe(row.statisticsRowId);
    if (!process.env.DATABASE_URL) return;
    const { rows: trigrams } = await sql<{ trigram: string; patients: number }>`select trigram, patients from search_trigram_counts
      where trigram in ('sch', 'mei', 'ann', 'mue') order by trigram`.execute(db);
    const keys = await db
      .selectFrom('patients')
      .select(['lastNameKey', 'firstNameKey', 'lastNameSpelledKey', 'firstNameSpelledKey', 'patientCodeKey', 'phoneKey'])
      .execute();
    const having = (trigram: string) => keys.filter((k) => Object.values(k).some((v) => typeof v === 'string' && v.includes(trigram))).length;
    expect(trigrams.map((r) => [r.trigram, Number(r.patients)])).toEqual(['ann', 'mei', 'mue', 'sch'].map((t) => [t, having(t)]));
  });

  test('every patient has its statistics pseudonym, the one the statistics would give it', async ({ storage, result: _ }) => {
    const key = await pseudonymKey(storage.db);
    const rows = await storage.db.selectFrom('patients').select(['id', 'statisticsRowId']).execute();
    expect(rows).toHaveLength(DEMO_PATIENTS + N);
    for (const row of rows) expect(row.statisticsRowId).toBe(rowIdOf(key, row.id));
  });

  test('the patient table has the indexes it had before the load, as they were', async ({ storage, result: _ }) => {
    expect(indexesBefore.length).toBeGreaterThan(5);
    expect(await patientIndexes(storage)).toEqual(indexesBefore);
  });

  test('care teams: most patients have a primary coach, a third have colleagues of the same team, never the primary twice', async ({ storage, result }) => {
    const patients = await storage.db.selectFrom('patients').select(['id', 'primaryCoachId']).where('id', 'like', 'scale-%').execute();
    const primary = new Map(patients.map((p) => [p.id, p.primaryCoachId as string | null]));
    expect(patients.filter((p) => p.primaryCoachId).length / N).toBeGreaterThan(0.9);
    const links = await storage.db.selectFrom('patient_coaches').select(['patientId', 'coachId']).where('patientId', 'like', 'scale-%').execute();
    expect(links.length).toBe(result.careTeamLinks);
    expect(links.length / N).toBeGreaterThan(0.25);
    const team = (coachId: string) => Math.floor((Number(coachId.slice('scale-coach-'.length)) - 1) / TEAM_SIZE);
    for (const link of links) {
      const own = primary.get(link.patientId) as string;
      expect(link.coachId).not.toBe(own);
      expect(team(link.coachId)).toBe(team(own));
    }
    const coaches = new Set(patients.map((p) => p.primaryCoachId).filter(Boolean));
    expect(coaches.size).toBe(6);
  });

  test('a generated coach sees the patients of their care teams through the API', async ({ storage }) => {
    const app = createUpstreamApp({ db: storage.db, dataDir: ':memory:' });
    const coachId = 'scale-coach-0001';
    const token = `Bearer ${(await issueToken(app.upstream, coachId, 'access', 3600)).token}`;
    const own = await storage.db
      .selectFrom('patients')
      .select('id')
      .where((eb) =>
        eb.or([eb('primaryCoachId', '=', coachId), eb('id', 'in', eb.selectFrom('patient_coaches').select('patientId').where('coachId', '=', coachId))]),
      )
      .execute();
    const answer = await request(app)
      .get('/v2/patients')
      .query({ filter: JSON.stringify({ limit: 1000 }) })
      .set('authorization', token);
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBe(own.length);
    expect(own.length).toBeGreaterThan(200);
  });
});

test('npm run seed -- --patients N seeds the DATA_DIR folder with the demo instance and N patients', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'seed-scale-'));
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
    delete env.DATABASE_URL;
    const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'seed', '--', '--patients', '40'], { env });
    expect(stdout).toContain('"patients":40');
    const storage = await openStorage({ dataDir, databaseUrl: '' });
    try {
      const patients = await storage.db.selectFrom('patients').select('id').execute();
      expect(patients.length).toBe(DEMO_PATIENTS + 40);
    } finally {
      await storage.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 120_000);

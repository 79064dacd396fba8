import { describe, expect } from 'vitest';
import request from 'supertest';
import { sql } from 'kysely';
import { fileRowsTest, jsonQuery, type RowsUpstream, type TestCoach } from '../../helpers/upstream-rows.ts';
import { addDays } from '../../../server/upstream/lib/days.ts';
import { MOST_FIRST_WALK } from '../../../server/upstream/features/statistics/split-orders.ts';

/*
 * The detail table sorted by a figure, most first, walks the patients by their totals over all days
 * (patient_figure_totals, migration 126) and stops once no later patient can come before the page's last row.
 * These tests hold the totals to a count made from the records after every kind of write, and the walk's pages to
 * the order the rows themselves show, with patients whose records lie mostly outside the period (a large total, a
 * small figure) and many equal figures (run with DATABASE_URL for PostgreSQL).
 */
const TODAY = '2026-06-15';
const period = { from: '2026-04-01', to: '2026-06-15' };
const PATIENTS = 240;
const FIGURES = ['dayEvaluations', 'phoneCoachings', 'phoneCoachingMinutes'] as const;

interface Row {
  rowId: string;
  dayEvaluations: number;
  phoneCoachings: number;
  phoneCoachingMinutes: number;
}

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function writer(u: RowsUpstream, admin: TestCoach) {
  const put = async (patientId: string, collection: string, id: string, data: Record<string, unknown>) => {
    const res = await request(u.app).put(`/v2/patients/${patientId}/sync-db/${collection}`).set('Authorization', admin.auth).send({ id, data });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  return {
    evaluation: (patientId: string, date: string) => put(patientId, 'day-evaluation', `de-${date}`, { date, mood: 3, sleep: 3, stress: 3 }),
    call: (patientId: string, id: string, date: string, minutes: number, done = true, type = 'phone-coaching') =>
      put(patientId, 'event', id, { title: 'Gespräch', type, start: `${date}T09:00:00.000Z`, durationMinutes: minutes, done }),
    remove: async (patientId: string, collection: string, id: string) => {
      const res = await request(u.app).delete(`/v2/patients/${patientId}/sync-db/${collection}/${id}`).set('Authorization', admin.auth);
      expect(res.status).toBeLessThan(300);
    },
  };
}

/**
 * PATIENTS patients over two coaches (more than the walk reads at first, so it has to decide where to stop); a third with many day-evaluations and calls before the period, some with a few in
 * it, many with one or none, so totals and figures differ and many figures are equal.
 */
async function addData(u: RowsUpstream, admin: TestCoach): Promise<void> {
  const next = random(126);
  const w = writer(u, admin);
  for (let i = 0; i < PATIENTS; i++) {
    const start = addDays(TODAY, -Math.floor(next() * 300));
    const id = `f${i}`;
    await u.patient({ id, aftercareStart: start, aftercareEnd: addDays(start, 30 + Math.floor(next() * 250)), primaryCoachId: next() < 0.5 ? 'k1' : 'k2' });
    const before = next() < 0.3 ? 5 + Math.floor(next() * 20) : 0;
    for (let d = 0; d < before; d++) await w.evaluation(id, addDays(period.from, -1 - d));
    for (let d = 0, n = Math.floor(next() * 6); d < n; d++) await w.evaluation(id, addDays(period.to, -d * 7));
    const minutes = () => [0, 10, 30, 45][Math.floor(next() * 4)];
    for (let c = 0; c < (before ? 4 : 0); c++) await w.call(id, `b${c}`, addDays(period.from, -c - 1), minutes());
    for (let c = 0, n = Math.floor(next() * 4); c < n; c++) await w.call(id, `c${c}`, addDays(period.to, -c - 1), minutes());
  }
}

const test = fileRowsTest({ now: `${TODAY}T10:00:00.000Z` })
  .extend('admin', { scope: 'file', auto: true }, ({ u }) => u.coach('admin'))
  .extend('data', { scope: 'file', auto: true }, async ({ u, admin }) => {
    for (const id of ['k1', 'k2']) await u.coach('coach', id);
    await addData(u, admin);
  })
  .extend('rows', { scope: 'file' }, ({ u, admin }) => async (query: Record<string, unknown>): Promise<Row[]> => {
    const res = await request(u.app)
      .get('/v2/statistics/patient-detail-statistics')
      .set('Authorization', admin.auth)
      .query(jsonQuery({ ...period, ...query }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as Row[];
  });

/** The totals as counted from the records themselves, per patient (patients without any left out). */
async function recount(u: RowsUpstream) {
  const { rows } = await sql<{ patientId: string; e: number; c: number; m: number }>`select "patientId",
      sum(case when collection = 'day-evaluation' then 1 else 0 end) as e,
      sum(case when collection = 'event' and type = 'phone-coaching' and done = 1 then 1 else 0 end) as c,
      sum(case when collection = 'event' and type = 'phone-coaching' and done = 1 and minutes > 0 then minutes else 0 end) as m
    from sync_records group by "patientId"`.execute(u.db);
  return rows
    .map((r) => ({ patientId: r.patientId, dayEvaluations: Number(r.e), calls: Number(r.c), callMinutes: Number(r.m) }))
    .filter((r) => r.dayEvaluations || r.calls || r.callMinutes)
    .sort((a, b) => a.patientId.localeCompare(b.patientId));
}

async function stored(u: RowsUpstream) {
  const rows = await u.db.selectFrom('patient_figure_totals').select(['patientId', 'dayEvaluations', 'calls', 'callMinutes']).execute();
  return rows
    .map((r) => ({ patientId: r.patientId, dayEvaluations: Number(r.dayEvaluations), calls: Number(r.calls), callMinutes: Number(r.callMinutes) }))
    .filter((r) => r.dayEvaluations || r.calls || r.callMinutes)
    .sort((a, b) => a.patientId.localeCompare(b.patientId));
}

describe('patient figure totals', { timeout: 60_000 }, () => {
  test('are what the records hold after inserts, changes of a call, deletions and a deleted patient', async ({ u, admin }) => {
    expect(await stored(u)).toEqual(await recount(u));
    const w = writer(u, admin);
    await w.call('f1', 'c0', '2026-05-02', 25, false); // held -> not held (or a new planned call)
    await w.call('f2', 'c0', '2026-05-02', 0); // minutes -> 0
    await w.call('f3', 'c0', '2026-05-02', 50, true, 'video-coaching'); // no longer a phone coaching
    await w.call('f4', 'c9', '2026-05-03', 15); // a new one
    await w.call('f4', 'c9', '2026-05-03', 20); // the same again, other minutes
    await w.evaluation('f5', '2026-05-04');
    await w.evaluation('f5', '2026-05-04'); // written twice, counted once
    const some = (collection: string) =>
      u.db.selectFrom('sync_records').select(['patientId', 'id']).where('collection', '=', collection).orderBy('patientId').executeTakeFirstOrThrow();
    const evaluation = await some('day-evaluation');
    await w.remove(evaluation.patientId, 'day-evaluation', evaluation.id);
    const call = await some('event');
    await w.remove(call.patientId, 'event', call.id);
    expect(await stored(u)).toEqual(await recount(u));
    await u.db.deleteFrom('patients').where('id', '=', 'f8').execute();
    expect((await u.db.selectFrom('patient_figure_totals').select('patientId').where('patientId', '=', 'f8').execute()).length).toBe(0);
    expect(await stored(u)).toEqual(await recount(u));
  });
});

describe('patient-detail-statistics by a figure, most first', { timeout: 60_000 }, () => {
  /** Most first, equal figures by row id: the order the rows themselves give. */
  const expected = (all: Row[], figure: (typeof FIGURES)[number]) =>
    [...all].sort((a, b) => b[figure] - a[figure] || (a.rowId < b.rowId ? -1 : a.rowId > b.rowId ? 1 : 0)).map((r) => r.rowId);

  test.for(FIGURES.flatMap((figure) => [undefined, 'k1'].map((coachId) => [figure, coachId] as const)))(
    '%s, coach filter %s: every page is the part of the whole order the rows show',
    async ([figure, coachId], { rows }) => {
      const filter = coachId ? { coachId } : {};
      const all = await rows({ ...filter, order: 'rowId ASC', limit: 1000 });
      expect(all.length).toBeGreaterThan(20);
      // Patients whose records lie mostly before the period: their totals are larger than their figures.
      expect(all.filter((r) => r.dayEvaluations > 0).length).toBeGreaterThan(5);
      const order = expected(all, figure);
      const whole = await rows({ ...filter, order: `${figure} DESC`, limit: 1000 });
      expect(whole.map((r) => r.rowId)).toEqual(order);
      // Pages at the start, where the last figure begins or ends, and at the end.
      const figures = all.map((r) => r[figure]).filter((v) => v > 0);
      const lastFigure = Math.min(...figures);
      const starts = order.findIndex((id) => all.find((r) => r.rowId === id)?.[figure] === lastFigure);
      expect(starts).toBeGreaterThan(2);
      for (const [skip, limit] of [
        [0, 1],
        [0, 3],
        [2, 5],
        [7, 4],
        [15, 10],
        [starts - 2, 4],
        [starts, 1],
        [starts + 3, 6],
        [figures.length - 2, 3],
        [order.length - 3, 10],
      ]) {
        const page = await rows({ ...filter, order: `${figure} DESC`, skip, limit });
        expect(
          page.map((r) => r.rowId),
          `skip ${skip} limit ${limit}`,
        ).toEqual(order.slice(skip, skip + limit));
      }
      // Pages of one with the walk's first batch as small as can be: its batches end all over the order, also
      // within patients of equal totals.
      const firstBatch = MOST_FIRST_WALK.firstBatch;
      MOST_FIRST_WALK.firstBatch = 1;
      try {
        for (let skip = 0; skip <= figures.length; skip++) {
          const page = await rows({ ...filter, order: `${figure} DESC`, skip, limit: 1 });
          expect(
            page.map((r) => r.rowId),
            `skip ${skip}`,
          ).toEqual(order.slice(skip, skip + 1));
        }
      } finally {
        MOST_FIRST_WALK.firstBatch = firstBatch;
      }
    },
  );
});

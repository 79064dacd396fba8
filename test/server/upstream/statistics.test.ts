import { describe, expect } from 'vitest';
import request from 'supertest';
import { fileRowsTest, jsonQuery, type RowsUpstream, type TestCoach } from '../../helpers/upstream-rows.ts';

/*
 * A small known data set, period 2026-06-01 .. 2026-06-10 (10 days):
 *   p1 Becker  (coach c1) aftercare 05-01..06-05  -> completed on 06-10, 5 days in the period
 *   p2 Albers  (coach c1) aftercare 06-03..08-31  -> active, 8 days, data synchronised 06-04
 *   p3 Hoffmann(coach c1) aftercare 06-20..09-30  -> planned, outside the period
 *   p4 Zimmer  (coach c2) aftercare 01-01..12-31  -> active, 10 days, never synchronised
 * Phone coachings (held): p1 06-02 30 min + 15 min, p2 06-10 00:30 Berlin time (06-09 22:30 UTC) 20 min,
 * p4 06-04 45 min; not counted: p2 planned call 06-05, p4 video call 06-04, p4 call 05-31.
 */
const period = { from: '2026-06-01', to: '2026-06-10' };

/** Writes sync rows as the administrator, as the app would. */
function syncWriter(u: RowsUpstream, admin: TestCoach) {
  return {
    async event(patientId: string, id: string, data: Record<string, unknown>) {
      const res = await request(u.app)
        .put(`/v2/patients/${patientId}/sync-db/event`)
        .set('Authorization', admin.auth)
        .send({ id, data: { title: 'Gespräch', ...data } });
      expect(res.status).toBe(200);
    },
    async dayEvaluation(patientId: string, date: string) {
      const res = await request(u.app)
        .put(`/v2/patients/${patientId}/sync-db/day-evaluation`)
        .set('Authorization', admin.auth)
        .send({ id: `de-${date}`, data: { date, mood: 3, sleep: 3, stress: 3 } });
      expect(res.status).toBe(200);
    },
  };
}

const test = fileRowsTest({ now: '2026-06-15T10:00:00.000Z' })
  .extend('admin', { scope: 'file', auto: true }, ({ u }) => u.coach('admin'))
  .extend('health', { scope: 'file', auto: true }, ({ u }) => u.coach('health'))
  .extend('coach', { scope: 'file', auto: true }, ({ u }) => u.coach('coach'))
  .extend('c1', { scope: 'file', auto: true }, ({ u }) => u.coach('coach', 'c1'))
  .extend('event', { scope: 'file' }, ({ u, admin }) => syncWriter(u, admin).event)
  .extend('dataSet', { scope: 'file', auto: true }, async ({ u, admin, event }) => {
    const { dayEvaluation } = syncWriter(u, admin);
    await u.coach('coach', 'c2');
    await u.patient({ id: 'p1', lastName: 'Becker', aftercareStart: '2026-05-01', aftercareEnd: '2026-06-05', primaryCoachId: 'c1' });
    await u.patient({ id: 'p2', lastName: 'Albers', aftercareStart: '2026-06-03', aftercareEnd: '2026-08-31', primaryCoachId: 'c1' });
    await u.patient({ id: 'p3', lastName: 'Hoffmann', aftercareStart: '2026-06-20', aftercareEnd: '2026-09-30', primaryCoachId: 'c1' });
    await u.patient({ id: 'p4', lastName: 'Zimmer', aftercareStart: '2026-01-01', aftercareEnd: '2026-12-31', primaryCoachId: 'c2' });

    await event('p1', 'e1', { type: 'phone-coaching', start: '2026-06-02T09:00:00.000Z', durationMinutes: 30, done: true });
    await event('p1', 'e2', { type: 'phone-coaching', start: '2026-06-02T14:00:00.000Z', durationMinutes: 15, done: true });
    await event('p2', 'e3', { type: 'phone-coaching', start: '2026-06-09T22:30:00.000Z', durationMinutes: 20, done: true });
    await event('p2', 'e4', { type: 'phone-coaching', start: '2026-06-05T09:00:00.000Z', durationMinutes: 30, done: false });
    await event('p4', 'e5', { type: 'video-coaching', start: '2026-06-04T09:00:00.000Z', durationMinutes: 30, done: true });
    await event('p4', 'e6', { type: 'phone-coaching', start: '2026-05-31T12:00:00.000Z', durationMinutes: 10, done: true });
    await event('p4', 'e7', { type: 'phone-coaching', start: '2026-06-04T10:00:00.000Z', durationMinutes: 45, done: true });

    u.setNow('2026-05-31T19:00:00.000Z');
    await dayEvaluation('p1', '2026-05-31');
    u.setNow('2026-06-01T19:00:00.000Z');
    await dayEvaluation('p1', '2026-06-01');
    u.setNow('2026-06-04T19:00:00.000Z');
    await dayEvaluation('p2', '2026-06-03');
    await dayEvaluation('p2', '2026-06-04');
    await dayEvaluation('p2', '2026-06-11');
    u.setNow('2026-06-15T10:00:00.000Z');
  })
  .extend(
    'get',
    { scope: 'file' },
    ({ u }) =>
      (path: string, who: TestCoach, query: Record<string, unknown> = period) =>
        request(u.app).get(`/v2/statistics/${path}`).set('Authorization', who.auth).query(jsonQuery(query)),
  );

describe('patient-statistics', () => {
  test('counts patients by aftercare status on the last day and the flows within the period', async ({ health, get }) => {
    const res = await get('patient-statistics', health);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      from: '2026-06-01',
      to: '2026-06-10',
      total: 4,
      planned: 1,
      active: 2,
      completed: 1,
      startedInPeriod: 1,
      endedInPeriod: 1,
      activeWithoutDataFor7Days: 1,
    });
  });

  test('narrows to the patients of one primary coach', async ({ admin, get }) => {
    const res = await get('patient-statistics', admin, { ...period, coachId: 'c1' });
    expect(res.body).toMatchObject({ total: 3, planned: 1, active: 1, completed: 1, activeWithoutDataFor7Days: 0 });
  });

  test('defaults to the 90 days up to today', async ({ admin, get }) => {
    const res = await get('patient-statistics', admin, {});
    expect(res.body).toMatchObject({ from: '2026-03-18', to: '2026-06-15' });
  });
});

describe('daily-patients-in-aftercare', () => {
  test('counts for every day of the period the patients whose interval contains it', async ({ health, get }) => {
    const res = await get('daily-patients-in-aftercare', health);
    expect(res.status).toBe(200);
    expect(res.body.map((d: { count: number }) => d.count)).toEqual([2, 2, 3, 3, 3, 2, 2, 2, 2, 2]);
    expect(res.body[0]).toEqual({ date: '2026-06-01', count: 2 });
    expect(res.body[9].date).toBe('2026-06-10');
  });
});

describe('phone-coachings', () => {
  test('counts held phone coachings per German calendar day with their minutes, zeros included', async ({ health, get }) => {
    const res = await get('phone-coachings', health);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(10);
    const nonZero = res.body.filter((d: { count: number }) => d.count > 0);
    expect(nonZero).toEqual([
      { date: '2026-06-02', count: 2, minutes: 45 },
      { date: '2026-06-04', count: 1, minutes: 45 },
      { date: '2026-06-10', count: 1, minutes: 20 },
    ]);
  });

  test('narrows to the patients of one primary coach', async ({ health, get }) => {
    const res = await get('phone-coachings', health, { ...period, coachId: 'c1' });
    const total = res.body.reduce((sum: number, d: { count: number }) => sum + d.count, 0);
    expect(total).toBe(3);
  });
});

describe('patient-detail-statistics', () => {
  test('has one row per patient in aftercare during the period with days, calls, minutes and day-evaluations', async ({ admin, get }) => {
    const res = await get('patient-detail-statistics', admin);
    expect(res.status).toBe(200);
    expect(res.headers['x-total-count']).toBe('3');
    const rows = res.body.map((r: Record<string, unknown>) => [
      r.lastName,
      r.status,
      r.daysInAftercare,
      r.phoneCoachings,
      r.phoneCoachingMinutes,
      r.dayEvaluations,
    ]);
    expect(rows).toEqual([
      ['Albers', 'active', 8, 1, 20, 2],
      ['Becker', 'completed', 5, 2, 45, 1],
      ['Zimmer', 'active', 10, 1, 45, 0],
    ]);
    expect(res.body[0]).toMatchObject({ patientId: 'p2', primaryCoachId: 'c1', primaryCoachName: 'Vor Name c1', lastDataAt: '2026-06-04T19:00:00.000Z' });
    expect(res.body[2].lastDataAt).toBeNull();
  });

  test('sorts by any row field and pages with limit and skip while X-Total-Count keeps all rows', async ({ admin, get }) => {
    const sorted = await get('patient-detail-statistics', admin, { ...period, order: 'daysInAftercare DESC' });
    expect(sorted.body.map((r: { lastName: string }) => r.lastName)).toEqual(['Zimmer', 'Albers', 'Becker']);
    const page = await get('patient-detail-statistics', admin, { ...period, limit: 2, skip: 1 });
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.body.map((r: { lastName: string }) => r.lastName)).toEqual(['Becker', 'Zimmer']);
  });
});

describe('patient-detail-statistics orders', () => {
  type Row = Record<string, string | number | null>;
  /** A missing value before any other, then the value, then the row id ascending whatever the direction. */
  const ordered = (rows: Row[], field: string, direction: 'ASC' | 'DESC') =>
    [...rows].sort((a, b) => {
      const [x, y] = [a[field], b[field]];
      const sign = direction === 'ASC' ? 1 : -1;
      if (x !== y) {
        if (x === null) return -sign;
        if (y === null) return sign;
        return sign * (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).toLowerCase() < String(y).toLowerCase() ? -1 : 1);
      }
      return String(a.rowId) < String(b.rowId) ? -1 : 1;
    });

  const fields = [
    'primaryCoachName',
    'patientCode',
    'aftercareStart',
    'aftercareEnd',
    'status',
    'daysInAftercare',
    'phoneCoachings',
    'phoneCoachingMinutes',
    'dayEvaluations',
    'lastDataAt',
  ];
  test.for(fields.flatMap((field) => [`${field} ASC`, `${field} DESC`]))(
    '%s sorts the rows by what they show, ties by row id',
    async (order, { admin, get }) => {
      const [field, direction] = order.split(' ') as [string, 'ASC' | 'DESC'];
      const rows = (await get('patient-detail-statistics', admin, { ...period, order })).body as Row[];
      expect(rows).toHaveLength(3);
      expect(rows.map((r) => r.rowId)).toEqual(ordered(rows, field, direction).map((r) => r.rowId));
    },
  );

  test('by figures, status and days: a call without minutes sorts with the patients without calls, and pages of one give the whole order', async ({
    event,
    admin,
    get,
  }) => {
    // July: p2, p3 and p4 are in aftercare; p3 has a call of 0 minutes, p4 one of 30, p2 none.
    const july = { from: '2026-07-01', to: '2026-07-31' };
    await event('p3', 'july-1', { type: 'phone-coaching', start: '2026-07-10T08:00:00.000Z', durationMinutes: 0, done: true });
    await event('p4', 'july-2', { type: 'phone-coaching', start: '2026-07-11T08:00:00.000Z', durationMinutes: 30, done: true });
    // June's first ten days: Becker completed, Albers and Zimmer active; Zimmer without day-evaluations and the only
    // one in aftercare all of them. July: all three in aftercare all of it.
    // Becker's aftercare ends on the last day of the first, Albers' starts on the first day of the second: both
    // are in aftercare all of the period, as Zimmer is.
    const endsOnLastDay = { from: '2026-06-01', to: '2026-06-05' };
    const startsOnFirstDay = { from: '2026-06-03', to: '2026-06-05' };
    const orders = ['phoneCoachingMinutes', 'phoneCoachings', 'dayEvaluations', 'status', 'daysInAftercare'].flatMap((field) => [
      `${field} ASC`,
      `${field} DESC`,
    ]);
    for (const [when, order] of [july, period, endsOnLastDay, startsOnFirstDay].flatMap((when) => orders.map((order) => [when, order] as const))) {
      const label = `${order} from ${when.from}`;
      const [field, direction] = order.split(' ') as [string, 'ASC' | 'DESC'];
      const rows = (await get('patient-detail-statistics', admin, { ...when, order })).body as Row[];
      expect(rows, label).toHaveLength(3);
      expect(
        rows.map((r) => r.rowId),
        label,
      ).toEqual(ordered(rows, field, direction).map((r) => r.rowId));
      const pages: Row[] = [];
      for (let skip = 0; skip < 4; skip++) pages.push(...((await get('patient-detail-statistics', admin, { ...when, order, limit: 1, skip })).body as Row[]));
      expect(
        pages.map((r) => r.rowId),
        label,
      ).toEqual(rows.map((r) => r.rowId));
      const rest = (await get('patient-detail-statistics', admin, { ...when, order, limit: 5, skip: 1 })).body as Row[];
      expect(
        rest.map((r) => r.rowId),
        label,
      ).toEqual(rows.slice(1).map((r) => r.rowId));
    }
    const byMinutes = (await get('patient-detail-statistics', admin, { ...july, order: 'phoneCoachingMinutes DESC' })).body as Row[];
    expect(byMinutes[0]).toMatchObject({ lastName: 'Zimmer', phoneCoachings: 1, phoneCoachingMinutes: 30 });
    const zeros = byMinutes.slice(1);
    expect(zeros.map((r) => [r.lastName, r.phoneCoachings, r.phoneCoachingMinutes]).sort()).toEqual([
      ['Albers', 0, 0],
      ['Hoffmann', 1, 0],
    ]);
    expect(String(zeros[0].rowId) < String(zeros[1].rowId)).toBe(true);
  });
});

describe('patient-detail-statistics for a health manager', () => {
  test('names no patient the health manager may not open: no id, code or name, only a pseudonym that opens nothing', async ({ u, admin, health, get }) => {
    const res = await get('patient-detail-statistics', health, { ...period, order: 'daysInAftercare DESC' });
    expect(res.status).toBe(200);
    expect(res.headers['x-total-count']).toBe('3');
    for (const row of res.body) {
      expect(row).toMatchObject({ patientId: null, patientCode: null, firstName: null, lastName: null });
      expect(row.rowId).toMatch(/^pseudo-[0-9a-f]{16}$/);
    }
    // The aggregates are the same as an administrator's.
    expect(res.body.map((r: Record<string, unknown>) => [r.status, r.daysInAftercare, r.phoneCoachings, r.phoneCoachingMinutes, r.dayEvaluations])).toEqual([
      ['active', 10, 1, 45, 0],
      ['active', 8, 1, 20, 2],
      ['completed', 5, 2, 45, 1],
    ]);
    const text = JSON.stringify(res.body);
    for (const secret of ['p1', 'p2', 'p4', 'PC-p', 'Becker', 'Albers', 'Zimmer', 'Erika']) expect(text).not.toContain(secret);
    // A pseudonym is stable (the administrator's rows carry the same) and works as no patient id anywhere.
    const named = await get('patient-detail-statistics', admin, { ...period, order: 'daysInAftercare DESC' });
    expect(named.body.map((r: { rowId: string }) => r.rowId)).toEqual(res.body.map((r: { rowId: string }) => r.rowId));
    for (const { rowId } of res.body) {
      expect((await request(u.app).get(`/v2/patients/${rowId}`).set('Authorization', health.auth)).status).toBe(404);
      expect((await request(u.app).get(`/v2/patients/${rowId}/puks`).set('Authorization', health.auth)).status).toBe(404);
    }
    // Sorting by a hidden field does not order by it (it would leak the alphabet of the names).
    const byName = await get('patient-detail-statistics', health, { ...period, order: 'lastName ASC' });
    expect(byName.body.map((r: { rowId: string }) => r.rowId)).toEqual([...byName.body.map((r: { rowId: string }) => r.rowId)].sort());
  });

  test("shows a health manager who is in a patient's care team that patient by name", async ({ u, health, get }) => {
    await u.db.insertInto('patient_coaches').values({ patientId: 'p2', coachId: health.id, createdAt: '2026-06-01T00:00:00.000Z' }).execute();
    try {
      const res = await get('patient-detail-statistics', health);
      const named = res.body.filter((r: { patientId: string | null }) => r.patientId !== null);
      expect(named.map((r: { patientId: string; lastName: string }) => [r.patientId, r.lastName])).toEqual([['p2', 'Albers']]);
    } finally {
      await u.db.deleteFrom('patient_coaches').where('coachId', '=', health.id).execute();
    }
  });
});

describe('statistics permissions and query checks', () => {
  test.for(['patient-statistics', 'patient-detail-statistics', 'daily-patients-in-aftercare', 'phone-coachings'])(
    '%s answers 403 to a coach without the health-manager flag, even their own primary coach data',
    async (path, { u, admin, coach, c1, get }) => {
      expect((await get(path, coach)).status).toBe(403);
      expect((await get(path, c1, { ...period, coachId: 'c1' })).status).toBe(403);
      expect((await request(u.app).get(`/v2/statistics/${path}`)).status).toBe(401);
      expect((await get(path, admin)).status).toBe(200);
    },
  );

  test('answers 400 when from is after to, for an unknown query value, bad JSON or an unknown sort field', async ({ u, admin, get }) => {
    expect((await get('patient-statistics', admin, { from: '2026-06-10', to: '2026-06-01' })).status).toBe(400);
    expect((await get('patient-statistics', admin, { ...period, limit: 5 })).status).toBe(400);
    const badJson = await request(u.app).get('/v2/statistics/phone-coachings').set('Authorization', admin.auth).query({ from: '2026-06-01' });
    expect(badJson.status).toBe(400);
    expect(badJson.body.error.details[0].path).toBe('from');
    expect((await get('patient-detail-statistics', admin, { ...period, order: 'password ASC' })).status).toBe(400);
    expect((await get('daily-patients-in-aftercare', admin, { from: '2020-01-01', to: '2026-01-01' })).status).toBe(400);
  });
});

describe('calls recorded without a length', () => {
  test('count as a held phone coaching of 0 minutes; a withdrawn call counts as nothing', async ({ u, admin, health, event, get }) => {
    const day = '2026-06-12';
    await event('p4', 'call-no-length', { type: 'phone-coaching', kind: 'call-reached', start: `${day}T08:00:00.000Z`, durationMinutes: 0, done: true });
    await event('p4', 'call-undone', { type: 'phone-coaching', kind: 'call-withdrawn', start: `${day}T09:00:00.000Z`, durationMinutes: 0, done: false });
    const res = await get('phone-coachings', health, { from: day, to: day });
    expect(res.body).toEqual([{ date: day, count: 1, minutes: 0 }]);
    const stored = await request(u.app).get('/v2/patients/p4/sync-db/event/call-no-length').set('Authorization', admin.auth);
    expect(stored.body.data.kind).toBe('call-reached');
  });
});

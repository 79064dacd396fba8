import { describe, expect } from 'vitest';
import request from 'supertest';
import { fileRowsTest, jsonQuery, syncSamples } from '../../helpers/upstream-rows.ts';

const test = fileRowsTest({ now: '2026-06-15T10:00:00.000Z' })
  .extend('admin', { scope: 'file', auto: true }, ({ u }) => u.coach('admin'))
  .extend('primary', { scope: 'file', auto: true }, ({ u }) => u.coach('coach'))
  .extend('linked', { scope: 'file', auto: true }, ({ u }) => u.coach('coach'))
  .extend('stranger', { scope: 'file', auto: true }, ({ u }) => u.coach('coach'))
  .extend('health', { scope: 'file', auto: true }, ({ u }) => u.coach('health'))
  .extend('patients', { scope: 'file', auto: true }, async ({ u, primary, linked }) => {
    await u.patient({ id: 'p1', aftercareStart: '2026-05-01', aftercareEnd: '2026-08-31', primaryCoachId: primary.id });
    await u.patient({ id: 'p2', aftercareStart: '2026-05-01', aftercareEnd: '2026-08-31', primaryCoachId: primary.id });
    await u.db.insertInto('patient_coaches').values({ patientId: 'p1', coachId: linked.id, createdAt: '2026-05-01T00:00:00.000Z' }).execute();
  });

const url = (patientId: string, collection: string, id?: string) => `/v2/patients/${patientId}/sync-db/${collection}${id ? `/${id}` : ''}`;

describe('every synchronised collection', () => {
  test.for(Object.entries(syncSamples))('%s: PUT stores a record that GET id, GET list and DELETE see', async ([collection, data], { u, primary }) => {
    const put = await request(u.app).put(url('p2', collection)).set('Authorization', primary.auth).send({ id: 'r1', data });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: 'r1', patientId: 'p2', updatedAt: '2026-06-15T10:00:00.000Z', data });

    const one = await request(u.app)
      .get(url('p2', collection, 'r1'))
      .set('Authorization', primary.auth);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(put.body.data);

    const list = await request(u.app).get(url('p2', collection)).set('Authorization', primary.auth);
    expect(list.headers['x-total-count']).toBe('1');
    expect(list.body.map((r: { id: string }) => r.id)).toEqual(['r1']);

    expect(
      (
        await request(u.app)
          .delete(url('p2', collection, 'r1'))
          .set('Authorization', primary.auth)
      ).status,
    ).toBe(204);
    expect(
      (
        await request(u.app)
          .get(url('p2', collection, 'r1'))
          .set('Authorization', primary.auth)
      ).status,
    ).toBe(404);
  });
});

describe('sync-db records', () => {
  test('a PUT with an existing id replaces the record instead of adding one', async ({ u, admin }) => {
    const body = (mood: number) => ({ id: 'd1', data: { date: '2026-06-01', mood, sleep: 3, stress: 3 } });
    await request(u.app).put(url('p1', 'day-evaluation')).set('Authorization', admin.auth).send(body(2));
    await request(u.app).put(url('p1', 'day-evaluation')).set('Authorization', admin.auth).send(body(5));
    const list = await request(u.app).get(url('p1', 'day-evaluation')).set('Authorization', admin.auth);
    expect(list.headers['x-total-count']).toBe('1');
    expect(list.body[0].data.mood).toBe(5);
    expect(list.body[0].date).toBe('2026-06-01');
  });

  test('takes the record day of an event from its start in German time', async ({ u, admin }) => {
    const res = await request(u.app)
      .put(url('p1', 'event'))
      .set('Authorization', admin.auth)
      .send({ id: 'late', data: { ...syncSamples.event, start: '2026-06-01T22:30:00.000Z' } });
    expect(res.body.date).toBe('2026-06-02');
  });

  test('filters by date range, orders, pages and counts the matches in X-Total-Count', async ({ u, admin, linked }) => {
    for (const date of ['2026-06-02', '2026-06-03', '2026-06-04', '2026-06-05']) {
      await request(u.app)
        .put(url('p1', 'day-stats'))
        .set('Authorization', admin.auth)
        .send({ id: `s-${date}`, data: { date, steps: 1000, activeMinutes: 10 } });
    }
    const res = await request(u.app)
      .get(url('p1', 'day-stats'))
      .set('Authorization', linked.auth)
      .query(jsonQuery({ filter: { where: { date: { gte: '2026-06-03' } }, order: 'date DESC', limit: 2 } }));
    expect(res.status).toBe(200);
    expect(res.headers['x-total-count']).toBe('3');
    expect(res.body.map((r: { date: string }) => r.date)).toEqual(['2026-06-05', '2026-06-04']);
  });

  test('answers 400 for a filter on a field records do not have', async ({ u, admin }) => {
    const res = await request(u.app)
      .get(url('p1', 'day-stats'))
      .set('Authorization', admin.auth)
      .query(jsonQuery({ filter: { where: { steps: 1000 } } }));
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('filter.where.steps');
  });

  test('answers 422 naming the field when data does not fit the collection', async ({ u, admin }) => {
    const res = await request(u.app)
      .put(url('p1', 'day-evaluation'))
      .set('Authorization', admin.auth)
      .send({ id: 'bad', data: { date: '2026-06-01', mood: 9, sleep: 3, stress: 3 } });
    expect(res.status).toBe(422);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain('data.mood');
  });

  test('answers 404 for an unknown collection and for deleting a record that does not exist', async ({ u, admin }) => {
    expect((await request(u.app).get(url('p1', 'diary')).set('Authorization', admin.auth)).status).toBe(404);
    expect(
      (
        await request(u.app)
          .delete(url('p1', 'event', 'nope'))
          .set('Authorization', admin.auth)
      ).status,
    ).toBe(404);
  });

  test('data from the app moves lastDataAt and the sync state, a coach-planned event does not', async ({ u, primary }) => {
    await u.patient({ id: 'p3', aftercareStart: '2026-05-01', aftercareEnd: '2026-08-31', primaryCoachId: primary.id });
    u.setNow('2026-06-10T08:00:00.000Z');
    await request(u.app).put(url('p3', 'event')).set('Authorization', primary.auth).send({ id: 'e1', data: syncSamples.event });
    let patient = await u.db.selectFrom('patients').select('lastDataAt').where('id', '=', 'p3').executeTakeFirstOrThrow();
    expect(patient.lastDataAt).toBeNull();
    expect(await u.db.selectFrom('synced_patients').selectAll().where('patientId', '=', 'p3').executeTakeFirst()).toBeUndefined();

    u.setNow('2026-06-11T20:00:00.000Z');
    await request(u.app).put(url('p3', 'day-evaluation')).set('Authorization', primary.auth).send({ id: 'd1', data: syncSamples['day-evaluation'] });
    patient = await u.db.selectFrom('patients').select('lastDataAt').where('id', '=', 'p3').executeTakeFirstOrThrow();
    expect(patient.lastDataAt).toBe('2026-06-11T20:00:00.000Z');
    const state = await u.db.selectFrom('synced_patients').selectAll().where('patientId', '=', 'p3').executeTakeFirstOrThrow();
    expect(state).toMatchObject({ lastSyncAt: '2026-06-11T20:00:00.000Z', recordCount: 2, lastDayEvaluationDate: '2026-06-01' });
    u.setNow('2026-06-15T10:00:00.000Z');
  });
});

describe('sync-db permissions', () => {
  test('the primary coach, a linked coach and an admin may read; any other coach gets 403', async ({ u, admin, primary, linked, stranger, health }) => {
    for (const who of [primary, linked, admin]) {
      expect((await request(u.app).get(url('p1', 'event')).set('Authorization', who.auth)).status).toBe(200);
    }
    for (const who of [stranger, health]) {
      const res = await request(u.app).get(url('p1', 'event')).set('Authorization', who.auth);
      expect(res.status).toBe(403);
      expect((await request(u.app).put(url('p1', 'event')).set('Authorization', who.auth).send({ id: 'x', data: syncSamples.event })).status).toBe(403);
      expect(
        (
          await request(u.app)
            .delete(url('p1', 'event', 'late'))
            .set('Authorization', who.auth)
        ).status,
      ).toBe(403);
    }
  });

  test('answers 401 without a token and 404 for an unknown patient', async ({ u, admin }) => {
    expect((await request(u.app).get(url('p1', 'event'))).status).toBe(401);
    expect((await request(u.app).get(url('nobody', 'event')).set('Authorization', admin.auth)).status).toBe(404);
  });
});

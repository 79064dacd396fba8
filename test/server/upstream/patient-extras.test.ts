import { describe, expect } from 'vitest';
import request from 'supertest';
import { normalizeCode } from '../../../server/upstream/lib/codes.ts';
import { fileRowsTest, type RowsUpstream, type TestCoach } from '../../helpers/upstream-rows.ts';

const test = fileRowsTest({ now: '2026-06-15T10:00:00.000Z' })
  .extend('admin', { scope: 'file', auto: true }, ({ u }) => u.coach('admin'))
  .extend('primary', { scope: 'file', auto: true }, ({ u }) => u.coach('coach', 'primary'))
  .extend('colleague', { scope: 'file', auto: true }, ({ u }) => u.coach('coach', 'colleague'))
  .extend('stranger', { scope: 'file', auto: true }, ({ u }) => u.coach('coach'))
  .extend('health', { scope: 'file', auto: true }, ({ u }) => u.coach('health'))
  .extend('rows', { scope: 'file', auto: true }, async ({ u }) => {
    await u.db.updateTable('coaches').set({ title: 'Dipl.-Psych.', phone: '030 123' }).where('id', '=', 'primary').execute();
    await u.patient({ id: 'p1', aftercareStart: '2026-05-01', aftercareEnd: '2026-08-31', primaryCoachId: 'primary' });
    await u.patient({ id: 'orphan', aftercareStart: '2026-05-01', aftercareEnd: '2026-08-31', primaryCoachId: null });
    const at = '2026-06-01T00:00:00.000Z';
    await u.db
      .insertInto('devices')
      .values([
        { id: 'd1', name: 'Fitbit Inspire', type: 'activity-tracker', serialNumber: 'FB-1', createdAt: at, updatedAt: at },
        { id: 'd2', name: 'Omron M500', type: 'blood-pressure-monitor', serialNumber: 'OM-2', createdAt: at, updatedAt: at },
      ] as never)
      .execute();
  })
  .extend('as', { scope: 'file' }, ({ u }) => patientCalls(u));

/** The patient calls as one coach makes them. */
const patientCalls = (u: RowsUpstream) => (who: TestCoach) => ({
  get: (path: string) => request(u.app).get(`/v2/patients/${path}`).set('Authorization', who.auth),
  post: (path: string, body?: object) => request(u.app).post(`/v2/patients/${path}`).set('Authorization', who.auth).send(body),
  put: (path: string, body: unknown) =>
    request(u.app)
      .put(`/v2/patients/${path}`)
      .set('Authorization', who.auth)
      .send(body as object),
  del: (path: string) => request(u.app).delete(`/v2/patients/${path}`).set('Authorization', who.auth),
});

describe('primary coach', () => {
  test('answers the contact card of the responsible coach', async ({ primary, as }) => {
    const res = await as(primary).get('p1/primary-coach');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: 'primary',
      firstName: 'Vor',
      lastName: 'Name primary',
      title: 'Dipl.-Psych.',
      email: 'primary@example.org',
      phone: '030 123',
    });
  });
  test('answers null for a patient nobody is responsible for', async ({ admin, as }) => {
    const res = await as(admin).get('orphan/primary-coach');
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
  });
});

describe('unused access code', () => {
  test('creates a valid 90-day code once and hands out the same code until it is used', async ({ u, primary, as }) => {
    const first = await as(primary).get('p1/token/get-or-create-unused');
    expect(first.status).toBe(201);
    expect(normalizeCode(first.body.code)).toBe(first.body.code);
    expect(first.body).toMatchObject({ patientId: 'p1', coachId: 'primary', usedAt: null, expiresAt: '2026-09-13T10:00:00.000Z' });
    const again = await as(primary).get('p1/token/get-or-create-unused');
    expect(again.status).toBe(200);
    expect(again.body.code).toBe(first.body.code);

    await u.db.updateTable('patient_tokens').set({ usedAt: '2026-06-15T09:00:00.000Z' }).where('id', '=', first.body.id).execute();
    const fresh = await as(primary).get('p1/token/get-or-create-unused');
    expect(fresh.status).toBe(201);
    expect(fresh.body.code).not.toBe(first.body.code);
  });
});

describe('recovery keys', () => {
  test('POST creates a key with a check character and GET lists the keys newest first', async ({ u, primary, as }) => {
    const a = await as(primary).post('p1/puks', {});
    u.setNow('2026-06-15T11:00:00.000Z');
    const b = await as(primary).post('p1/puks');
    u.setNow('2026-06-15T10:00:00.000Z');
    expect(a.status).toBe(201);
    expect(normalizeCode(a.body.code)).toBe(a.body.code);
    const list = await as(primary).get('p1/puks');
    expect(list.body.map((p: { id: string }) => p.id)).toEqual([b.body.id, a.body.id]);
    expect(list.body[0]).toMatchObject({ patientId: 'p1', usedAt: null });
  });
  test('rejects a body with fields the call does not take', async ({ primary, as }) => {
    const res = await as(primary).post('p1/puks', { code: 'AAAA-AAAA-AA' });
    expect(res.status).toBe(422);
  });
});

describe('linked coaches', () => {
  test('linking a colleague gives them access and unlinking takes it away again', async ({ primary, colleague, as }) => {
    expect((await as(colleague).get('p1/coaches')).status).toBe(403);
    expect((await as(primary).post('p1/coaches/colleague')).status).toBe(204);
    expect((await as(primary).post('p1/coaches/colleague')).status).toBe(204);
    const list = await as(colleague).get('p1/coaches');
    expect(list.status).toBe(200);
    expect(list.body.map((c: { id: string }) => c.id)).toEqual(['colleague']);
    expect(list.body[0]).not.toHaveProperty('passwordHash');
    expect((await as(primary).del('p1/coaches/colleague')).status).toBe(204);
    expect((await as(colleague).get('p1/coaches')).status).toBe(403);
  });
  test('answers 404 for a coach that does not exist', async ({ primary, as }) => {
    expect((await as(primary).post('p1/coaches/ghost')).status).toBe(404);
  });
});

describe('devices', () => {
  test('links and unlinks lent devices', async ({ primary, as }) => {
    expect((await as(primary).post('p1/devices/d2')).status).toBe(204);
    expect((await as(primary).post('p1/devices/d1')).status).toBe(204);
    const list = await as(primary).get('p1/devices');
    expect(list.body.map((d: { id: string }) => d.id)).toEqual(['d1', 'd2']);
    expect(list.body[0]).toMatchObject({ name: 'Fitbit Inspire', type: 'activity-tracker', serialNumber: 'FB-1' });
    expect((await as(primary).del('p1/devices/d1')).status).toBe(204);
    expect((await as(primary).get('p1/devices')).body.map((d: { id: string }) => d.id)).toEqual(['d2']);
    expect((await as(primary).post('p1/devices/nope')).status).toBe(404);
  });
});

describe('appointments', () => {
  const appointment = (id: string, startsAt: string) => ({ id, startsAt, durationMinutes: 30, type: 'phone', note: '' });
  test('PUT replaces the list, answers it sorted by start and stores it on the patient', async ({ u, primary, as }) => {
    const res = await as(primary).put('p1/appointments', [appointment('b', '2026-06-20T09:00:00.000Z'), appointment('a', '2026-06-18T09:00:00.000Z')]);
    expect(res.status).toBe(200);
    expect(res.body.map((a: { id: string }) => a.id)).toEqual(['a', 'b']);
    const row = await u.db.selectFrom('patients').select('appointments').where('id', '=', 'p1').executeTakeFirstOrThrow();
    expect(JSON.parse(row.appointments as string).map((a: { id: string }) => a.id)).toEqual(['a', 'b']);
  });
  test('rejects duplicate ids and unknown appointment types, naming the field', async ({ primary, as }) => {
    const dup = await as(primary).put('p1/appointments', [appointment('a', '2026-06-18T09:00:00.000Z'), appointment('a', '2026-06-19T09:00:00.000Z')]);
    expect(dup.status).toBe(422);
    expect(dup.body.error.details[0].path).toBe('1.id');
    const bad = await as(primary).put('p1/appointments', [{ ...appointment('a', '2026-06-18T09:00:00.000Z'), type: 'letter' }]);
    expect(bad.body.error.details[0].path).toBe('0.type');
  });
});

describe('evaluation form', () => {
  test('starts empty and keeps what the coach saved, with who saved it', async ({ primary, as }) => {
    const empty = await as(primary).get('p1/evaluation-form');
    expect(empty.body).toEqual({
      patientId: 'p1',
      goalAttainment: null,
      workAbility: null,
      returnToWorkDate: null,
      followUpRecommended: false,
      summary: '',
      updatedBy: null,
      updatedAt: null,
    });
    const body = {
      goalAttainment: 4,
      workAbility: 'limited',
      returnToWorkDate: '2026-09-01',
      followUpRecommended: true,
      summary: 'Stufenweise Wiedereingliederung läuft.',
    };
    const saved = await as(primary).put('p1/evaluation-form', body);
    expect(saved.status).toBe(200);
    const read = await as(primary).get('p1/evaluation-form');
    expect(read.body).toEqual({ patientId: 'p1', ...body, updatedBy: 'primary', updatedAt: '2026-06-15T10:00:00.000Z' });
  });
  test('rejects a goal attainment outside 1 to 5', async ({ primary, as }) => {
    const res = await as(primary).put('p1/evaluation-form', {
      goalAttainment: 7,
      workAbility: null,
      returnToWorkDate: null,
      followUpRecommended: false,
      summary: '',
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].path).toBe('goalAttainment');
  });
});

describe('who may use the patient extras', () => {
  const calls: [string, (who: TestCoach, as: ReturnType<typeof patientCalls>) => request.Test][] = [
    ['GET primary-coach', (w, as) => as(w).get('p1/primary-coach')],
    ['GET token/get-or-create-unused', (w, as) => as(w).get('p1/token/get-or-create-unused')],
    ['GET puks', (w, as) => as(w).get('p1/puks')],
    ['POST puks', (w, as) => as(w).post('p1/puks', {})],
    ['GET coaches', (w, as) => as(w).get('p1/coaches')],
    ['POST coaches/{id}', (w, as) => as(w).post(`p1/coaches/${w.id}`)],
    ['DELETE coaches/{id}', (w, as) => as(w).del('p1/coaches/colleague')],
    ['GET devices', (w, as) => as(w).get('p1/devices')],
    ['POST devices/{id}', (w, as) => as(w).post('p1/devices/d1')],
    ['DELETE devices/{id}', (w, as) => as(w).del('p1/devices/d1')],
    ['PUT appointments', (w, as) => as(w).put('p1/appointments', [])],
    ['GET evaluation-form', (w, as) => as(w).get('p1/evaluation-form')],
    [
      'PUT evaluation-form',
      (w, as) => as(w).put('p1/evaluation-form', { goalAttainment: null, workAbility: null, returnToWorkDate: null, followUpRecommended: false, summary: '' }),
    ],
  ];
  test.for(calls)('%s: 403 for an unlinked coach or health manager, allowed for the admin', async ([_name, callAs], { as, stranger, health, admin }) => {
    const call = (who: TestCoach) => callAs(who, as);
    expect((await call(stranger)).status).toBe(403);
    expect((await call(health)).status).toBe(403);
    expect((await call(admin)).status).toBeLessThan(300);
  });
  test('answers 404 for an unknown patient and 401 without a token', async ({ u, admin, as }) => {
    expect((await as(admin).get('nobody/puks')).status).toBe(404);
    expect((await request(u.app).get('/v2/patients/p1/puks')).status).toBe(401);
  });
});

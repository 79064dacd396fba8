import { describe, expect } from 'vitest';
import request from 'supertest';
import { signedIn, upstreamTest } from '../../helpers/upstream-test.ts';

const test = upstreamTest()
  .extend('admin', { auto: true }, ({ t }) => signedIn(t, 'admin'))
  /** A list read by the administrator, with a filter (an object, or a string sent as it is). */
  .extend('list', ({ t, admin }) => (path: string, filter?: unknown) => {
    const req = request(t.app).get(`/v2${path}`).set('Authorization', `Bearer ${admin}`);
    return filter === undefined ? req : req.query({ filter: typeof filter === 'string' ? filter : JSON.stringify(filter) });
  })
  /** A POST by the administrator. */
  .extend(
    'post',
    ({ t, admin }) =>
      (path: string) =>
        request(t.app).post(`/v2${path}`).set('Authorization', `Bearer ${admin}`),
  );
const ids = (res: request.Response) => res.body.map((r: { id: string }) => r.id);

describe('list filters', () => {
  test('without a filter answers every row and X-Total-Count', async ({ list }) => {
    const res = await list('/patients');
    expect(res.status).toBe(200);
    expect(res.headers['x-total-count']).toBe('3');
    expect(ids(res)).toEqual(['p3', 'p1', 'p2']); // default order: last name
  });

  test('limit and skip page through the rows while X-Total-Count stays the number of matches', async ({ list }) => {
    const first = await list('/patients', { order: 'lastName ASC', limit: 2 });
    const second = await list('/patients', { order: 'lastName ASC', limit: 2, skip: 2 });
    expect(ids(first)).toEqual(['p3', 'p1']);
    expect(ids(second)).toEqual(['p2']);
    expect(first.headers['x-total-count']).toBe('3');
    expect(second.headers['x-total-count']).toBe('3');
    const skipOnly = await list('/patients', { order: 'lastName ASC', skip: 1 });
    expect(ids(skipOnly)).toEqual(['p1', 'p2']);
  });

  test('where supports equality, like (case-insensitive), inq, ranges, and/or', async ({ list }) => {
    expect(ids(await list('/patients', { where: { primaryCoachId: 'coach2' }, order: 'id ASC' }))).toEqual(['p2', 'p3']);
    expect(ids(await list('/patients', { where: { lastName: { like: 'sch%' } } }))).toEqual(['p2']);
    expect(ids(await list('/patients', { where: { lastName: { nlike: 'sch%' } }, order: 'id ASC' }))).toEqual(['p1', 'p3']);
    expect(ids(await list('/patients', { where: { id: { inq: ['p1', 'p3'] } }, order: 'id DESC' }))).toEqual(['p3', 'p1']);
    expect(ids(await list('/patients', { where: { id: { inq: [] } } }))).toEqual([]);
    expect(ids(await list('/patients', { where: { aftercareStart: { gte: '2026-09-01' } }, order: 'aftercareStart ASC' }))).toEqual(['p1', 'p3']);
    expect(ids(await list('/patients', { where: { aftercareEnd: { lt: '2026-11-22' } } }))).toEqual(['p2']);
    const active = { and: [{ aftercareStart: { lte: '2026-11-22' } }, { aftercareEnd: { gte: '2026-11-22' } }] };
    expect(ids(await list('/patients', { where: active }))).toEqual(['p1']);
    const either = { or: [{ lastName: 'Becker' }, { patientCode: 'AB-2345' }] };
    const res = await list('/patients', { where: either, order: ['lastName DESC'] });
    expect(ids(res)).toEqual(['p1', 'p3']);
    expect(res.headers['x-total-count']).toBe('2');
    expect(ids(await list('/patients', { where: { email: null } })).length).toBe(3);
  });

  test('filters booleans and numbers with their own types', async ({ list }) => {
    expect(ids(await list('/coaches', { where: { isAdmin: true } }))).toEqual(['admin']);
    expect(ids(await list('/coaches', { where: { isUserLocked: false, isHealthManager: true } }))).toEqual(['health']);
    expect(ids(await list('/cost-rates', { where: { amountCents: { gt: 3000 } } }))).toEqual(['rate-1']);
    expect(ids(await list('/cost-rates', { where: { amountCents: { between: [0, 100] } } }))).toEqual([]);
  });

  test.for([
    ['an unknown field in where', { where: { password: 'x' } }, 'filter.where.password'],
    ['an unknown field in a nested or', { where: { or: [{ lastName: 'A' }, { nope: 1 }] } }, 'filter.where.or.1.nope'],
    ['an unknown operator', { where: { lastName: { regexp: '.*' } } }, 'filter.where.lastName.regexp'],
    ['a value of the wrong type', { where: { isAdmin: 'yes' } }, 'filter.where.isAdmin'],
    ['a JSON field in where', { where: { diagnosisIds: 'dx-f33' } }, 'filter.where.diagnosisIds'],
    ['an unknown field in order', { order: 'passwordHash DESC' }, 'filter.order'],
    ['an unknown top-level key', { include: 'coach' }, 'filter.include'],
    ['a negative limit', { limit: -1 }, 'filter.limit'],
  ] as const)('answers 400 for %s', async ([_name, filter, path], { list }) => {
    const res = await list(path.startsWith('filter.where.is') ? '/coaches' : '/patients', filter);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_FILTER');
    expect(res.body.error.details[0].path).toBe(path);
  });

  test('answers 400 when the filter is not JSON', async ({ list }) => {
    const res = await list('/patients', '{limit:2');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ statusCode: 400, code: 'INVALID_QUERY', details: [{ path: 'filter', message: 'Invalid JSON' }] });
  });

  test('GET /coaches/{id}/patients takes the same filter', async ({ t, admin }) => {
    const res = await request(t.app)
      .get('/v2/coaches/coach2/patients')
      .set('Authorization', `Bearer ${admin}`)
      .query({ filter: JSON.stringify({ where: { lastName: 'Becker' } }) });
    expect(ids(res)).toEqual(['p3']);
    expect(res.headers['x-total-count']).toBe('1');
    const bad = await request(t.app).get('/v2/coaches/coach2/patients').set('Authorization', `Bearer ${admin}`).query({ filter: '{"where":{"x":1}}' });
    expect(bad.status).toBe(400);
  });
});

describe('request bodies', () => {
  test('answers 422 naming every invalid field', async ({ post }) => {
    const res = await post('/patients').send({
      firstName: '',
      lastName: 'Meier',
      birthDate: '31.12.1970',
      aftercareStart: '2026-01-01',
      aftercareEnd: '2026-02-01',
      email: 'keine-mail',
    });
    expect(res.status).toBe(422);
    expect(res.body.error.name).toBe('ValidationError');
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['birthDate', 'email', 'firstName']);
  });

  test('names nested fields by their path', async ({ post }) => {
    const res = await post('/surveys').send({ title: 'T', questions: [{ id: 'a', text: 'Frage', type: 'bogus' }] });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].path).toBe('questions.0.type');
  });

  test('answers 422 on aftercareEnd when the interval runs backwards, also for a PATCH of one end', async ({ t, admin, post }) => {
    const res = await post('/patients').send({
      firstName: 'A',
      lastName: 'B',
      birthDate: '1970-01-01',
      aftercareStart: '2026-05-01',
      aftercareEnd: '2026-04-01',
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].path).toBe('aftercareEnd');
    const patch = await request(t.app).patch('/v2/patients/p1').set('Authorization', `Bearer ${admin}`).send({ aftercareEnd: '2020-01-01' });
    expect(patch.status).toBe(422);
    expect(patch.body.error.details[0].path).toBe('aftercareEnd');
  });

  test('answers 422 when a referenced id does not exist', async ({ post }) => {
    const res = await post('/patients').send({
      firstName: 'A',
      lastName: 'B',
      birthDate: '1970-01-01',
      aftercareStart: '2026-05-01',
      aftercareEnd: '2026-06-01',
      diagnosisIds: ['dx-f33', 'dx-none'],
      costRateId: 'nope',
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual(['costRateId', 'diagnosisIds.1']);
  });

  test('answers 400 for a body that is not JSON and for a body that is not an object', async ({ post }) => {
    const bad = await post('/devices').set('Content-Type', 'application/json').send('{"name": ');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_JSON');
    const array = await post('/devices').send([1, 2]);
    expect(array.status).toBe(400);
    expect(array.body.error.name).toBe('ValidationError');
  });

  test('answers 413 for a body over 1 MB', async ({ post }) => {
    const res = await post('/comments').send({ patientId: 'p1', text: 'x'.repeat(1024 * 1024 + 10) });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE' });
  });

  test('answers 409 naming the field when a unique value is taken', async ({ post }) => {
    const res = await post('/devices').send({ name: 'Noch ein Tracker', type: 'activity-tracker', serialNumber: 'FB-0001' });
    expect(res.status).toBe(409);
    expect(res.body.error.details).toEqual([{ path: 'serialNumber', message: 'Already taken' }]);
    const coach = await post('/coaches').send({ email: 'COACH@example.org', firstName: 'X', lastName: 'Y' });
    expect(coach.status).toBe(409);
    expect(coach.body.error.details[0].path).toBe('email');
  });

  test('answers 404 in the JSON error format for unknown ids and paths', async ({ t, admin }) => {
    const res = await request(t.app).get('/v2/devices/nope').set('Authorization', `Bearer ${admin}`);
    expect(res.status).toBe(404);
    expect(res.body.error.statusCode).toBe(404);
    const path = await request(t.app).get('/v2/nothing-here');
    expect(path.status).toBe(404);
    expect(path.body.error.code).toBe('UNKNOWN_PATH');
  });

  test('never answers the password hash of a coach', async ({ t, admin }) => {
    const res = await request(t.app).get('/v2/coaches').set('Authorization', `Bearer ${admin}`);
    expect(JSON.stringify(res.body)).not.toMatch(/passwordHash|scrypt/);
  });
});

describe('resource round trip', () => {
  test('POST, GET, PUT, PATCH and DELETE a device', async ({ t, admin }) => {
    const auth = { Authorization: `Bearer ${admin}` };
    const created = await request(t.app).post('/v2/devices').set(auth).send({ name: 'Omron M500', type: 'blood-pressure-monitor', serialNumber: 'OM-77' });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect((await request(t.app).get(`/v2/devices/${id}`).set(auth)).body.name).toBe('Omron M500');
    t.clock.advance(60);
    const put = await request(t.app).put(`/v2/devices/${id}`).set(auth).send({ name: 'Omron M600', type: 'blood-pressure-monitor', serialNumber: 'OM-78' });
    expect(put.body).toMatchObject({ name: 'Omron M600', serialNumber: 'OM-78', createdAt: created.body.createdAt });
    expect(put.body.updatedAt > created.body.updatedAt).toBe(true);
    const patch = await request(t.app).patch(`/v2/devices/${id}`).set(auth).send({ name: 'Omron M700' });
    expect(patch.body).toMatchObject({ name: 'Omron M700', serialNumber: 'OM-78' });
    expect((await request(t.app).delete(`/v2/devices/${id}`).set(auth)).status).toBe(204);
    expect((await request(t.app).get(`/v2/devices/${id}`).set(auth)).status).toBe(404);
  });

  test('a new patient gets a pseudonym code and the creating coach as primary coach', async ({ t }) => {
    const coach = await t.login('coach@example.org');
    const res = await request(t.app)
      .post('/v2/patients')
      .set('Authorization', `Bearer ${coach}`)
      .send({
        firstName: 'Jürgen',
        lastName: 'Weiß',
        birthDate: '1961-07-08',
        aftercareStart: '2026-11-01',
        aftercareEnd: '2027-04-30',
        diagnosisIds: ['dx-m54'],
      });
    expect(res.status).toBe(201);
    expect(res.body.patientCode).toMatch(/^[A-HJ-NP-Z]{2}-[2-9]{4}$/);
    expect(res.body.primaryCoachId).toBe('coach');
    expect(res.body.diagnosisIds).toEqual(['dx-m54']);
  });
});

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { ROOT } from '../helpers/e2e-server.ts';
import { LB3_MAPPING, createLb3App } from '../helpers/lb3-upstream/app.ts';
import { LB3_ACCOUNTS, LB3_PASSWORD } from '../helpers/lb3-upstream/seed.ts';

// The second test upstream is only worth something if it is LoopBack 3 itself answering: these pin what the real
// package does with LoopBack-style requests (JSON filters, relation routes, hasOne, PUT/PATCH, its error bodies).
async function signedIn(email: string = LB3_ACCOUNTS.coach) {
  const { app, lb, ready } = createLb3App();
  await ready;
  const login = await request(app).post('/v2/auth/login').send({ email, password: LB3_PASSWORD });
  const auth = `Bearer ${login.body.id}`;
  const get = (path: string, filter?: object) =>
    request(app)
      .get(`/v2${path}`)
      .query(filter ? { filter: JSON.stringify(filter) } : {})
      .set('Authorization', auth);
  return { app, lb, login, auth, get };
}

describe('the LoopBack 3 test upstream', () => {
  test('answers login with its AccessToken { id, ttl, created, userId, user } and takes the id as a Bearer token as it came', async () => {
    const { login, get } = await signedIn();
    expect(login.status).toBe(200);
    expect(Object.keys(login.body).sort()).toEqual(['created', 'id', 'ttl', 'user', 'userId']);
    expect(typeof login.body.userId).toBe('number');
    expect(login.body.user).not.toHaveProperty('password');
    const me = await get('/auth/me');
    expect([me.status, me.body.email]).toEqual([200, LB3_ACCOUNTS.coach]);
  });

  test('answers a locked account 403 and wrong credentials 401 LOGIN_FAILED', async () => {
    const { app, ready } = createLb3App();
    await ready;
    const locked = await request(app).post('/v2/auth/login').send({ email: LB3_ACCOUNTS.locked, password: LB3_PASSWORD });
    expect(locked.status).toBe(403);
    const wrong = await request(app).post('/v2/auth/login').send({ email: LB3_ACCOUNTS.coach, password: 'falsch' });
    expect([wrong.status, wrong.body.error.code]).toEqual([401, 'LOGIN_FAILED']);
  });

  test('filters a list with a JSON filter (where with like, order, limit, fields), numeric ids and no X-Total-Count', async () => {
    const { get } = await signedIn(LB3_ACCOUNTS.admin);
    const list = await get('/patients', {
      where: { dateOfBirth: { like: '196%' }, programEnd: { gte: '2000-01-01' } },
      order: 'lastName DESC',
      limit: 3,
      fields: ['id', 'lastName'],
    });
    expect(list.status).toBe(200);
    expect(list.headers['x-total-count']).toBeUndefined();
    expect(list.body.map((p: { lastName: string }) => p.lastName)).toEqual(['Jung', 'Imhof', 'Hahn']);
    expect(Object.keys(list.body[0]).sort()).toEqual(['id', 'lastName']);
    expect(typeof list.body[0].id).toBe('number');
  });

  test("lists a coach's own patients under /coaches/{id}/patients and links coaches under /patients/{id}/coaches/{coachId}", async () => {
    const { app, auth, login, get } = await signedIn();
    const own = await get(`/coaches/${login.body.userId}/patients`, { where: { programStart: { lte: '2100-01-01' } }, order: 'id ASC' });
    expect(own.body.map((p: { firstName: string }) => p.firstName)).toEqual(['Anton', 'Berta', 'Carla', 'Dieter', 'Emil', 'Frieda', 'Gustav']);
    expect((await request(app).post('/v2/patients/8/coaches/2').set('Authorization', auth)).status).toBe(204);
    expect((await get('/patients/8/coaches')).body.map((c: { id: number }) => c.id)).toEqual([2]);
    expect((await get(`/coaches/${login.body.userId}/patients`)).body).toHaveLength(8);
    // Unlinking removes the link, not the coach (LoopBack's own DELETE …/coaches/{fk} would delete the coach).
    expect((await request(app).delete('/v2/patients/8/coaches/2').set('Authorization', auth)).status).toBe(204);
    expect((await get('/patients/8/coaches')).body).toEqual([]);
    expect((await get('/coaches/2')).status).toBe(200);
  });

  test('answers a hasOne without a row (the evaluation form) 404 with its error body, and PUT creates it', async () => {
    const { app, auth, get } = await signedIn();
    const none = await get('/patients/1/evaluation-form');
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ error: { statusCode: 404, name: 'Error', message: 'No "EvaluationForm" instance(s) found', code: 'MODEL_NOT_FOUND' } });
    const saved = await request(app).put('/v2/patients/1/evaluation-form').set('Authorization', auth).send({ summary: 'Ziele erreicht', goalAttainment: 4 });
    expect(saved.status).toBe(200);
    expect((await get('/patients/1/evaluation-form')).body).toMatchObject({ patientId: 1, summary: 'Ziele erreicht', goalAttainment: 4 });
  });

  test("changes some fields with PATCH, refuses a PUT of a coach without the password (422 ValidationError) and a coach's own flag change (403)", async () => {
    const { app, auth, login, get } = await signedIn();
    const patched = await request(app).patch('/v2/patients/2').set('Authorization', auth).send({ phone: '0301111' });
    expect(patched.body).toMatchObject({ id: 2, firstName: 'Berta', phone: '0301111', dateOfBirth: '1961-02-11' });
    const put = await request(app).put(`/v2/coaches/${login.body.userId}`).set('Authorization', auth).send({ email: LB3_ACCOUNTS.coach, firstName: 'Clara' });
    expect([put.status, put.body.error.name]).toEqual([422, 'ValidationError']);
    const patch = await request(app).patch(`/v2/coaches/${login.body.userId}`).set('Authorization', auth).send({ firstName: 'Clara' });
    expect([patch.status, patch.body.firstName]).toEqual([200, 'Clara']);
    const promote = await request(app).patch(`/v2/coaches/${login.body.userId}`).set('Authorization', auth).send({ isAdmin: true });
    expect(promote.status).toBe(403);
    expect((await get('/patients/999')).body).toEqual({
      error: { statusCode: 404, name: 'Error', message: 'Unknown "Patient" id "999".', code: 'MODEL_NOT_FOUND' },
    });
  });

  test('keeps synchronised records flat, the data fields beside id, patientId, date and updatedAt', async () => {
    const { app, auth, get } = await signedIn();
    const put = await request(app)
      .put('/v2/patients/1/sync-db/day-evaluation')
      .set('Authorization', auth)
      .send({ id: 'de-1', date: '2026-06-01', mood: 4, sleep: 3, stress: 2 });
    expect(put.status).toBe(200);
    const list = await get('/patients/1/sync-db/day-evaluation', { where: { id: 'de-1' } });
    expect(list.body).toEqual([{ id: 'de-1', patientId: 1, date: '2026-06-01', updatedAt: expect.any(String), mood: 4, sleep: 3, stress: 2 }]);
    expect((await get('/patients/1/sync-db/day-evaluation', { where: { mood: { gt: 4 } } })).body).toEqual([]);
    expect((await get('/patients/1/sync-db/nonsense')).status).toBe(404);
  });

  test('answers an unknown or expired token 401 AUTHORIZATION_REQUIRED, and a mailed reset token only sets the password', async () => {
    const { app, lb, get } = await signedIn();
    const unknown = await request(app).get('/v2/auth/me').set('Authorization', 'Bearer 0123456789abcdef');
    expect([unknown.status, unknown.body.error.code]).toEqual([401, 'AUTHORIZATION_REQUIRED']);
    // A token past its ttl is LoopBack's to refuse: sign in again, then age the token by its ttl.
    const other = await request(app).post('/v2/auth/login').send({ email: LB3_ACCOUNTS.admin, password: LB3_PASSWORD });
    await lb.models.CoachToken.updateAll({ id: other.body.id }, { created: new Date(Date.now() - (other.body.ttl + 1) * 1000) });
    expect((await request(app).get('/v2/auth/me').set('Authorization', `Bearer ${other.body.id}`)).status).toBe(401);
    expect((await request(app).post('/v2/auth/forgot-password').send({ email: 'niemand@lb3.example.com' })).status).toBe(204);
    expect((await request(app).post('/v2/auth/forgot-password').send({ email: LB3_ACCOUNTS.coach })).status).toBe(204);
    const mail = lb.outbox.at(-1)!;
    expect(mail.to).toBe(LB3_ACCOUNTS.coach);
    const reset = `Bearer ${new URL(mail.link).searchParams.get('access_token')}`;
    expect((await request(app).get('/v2/patients').set('Authorization', reset)).status).toBe(401);
    expect((await request(app).post('/v2/auth/me/set-password').set('Authorization', reset).send({ password: 'Neues-Kennwort-9' })).status).toBe(204);
    const login = await request(app).post('/v2/auth/login').send({ email: LB3_ACCOUNTS.coach, password: 'Neues-Kennwort-9' });
    expect(login.status).toBe(200);
    // A reset ends the account's other sessions (LoopBack's logoutSessionsOnSensitiveChanges).
    expect((await get('/auth/me')).status).toBe(401);
  });

  test('names its fields otherwise than the contract, and mapping.json names only fields its models have', async () => {
    const { lb } = await signedIn();
    const mapping = JSON.parse(readFileSync(LB3_MAPPING, 'utf8')) as { entities: Record<string, { fields?: Record<string, string | { name?: string }> }> };
    for (const [shape, { fields }] of Object.entries(mapping.entities)) {
      if (!fields) continue;
      const properties = Object.keys(lb.models[shape].definition.properties);
      for (const [contractName, target] of Object.entries(fields)) {
        const apiName = typeof target === 'string' ? target : (target.name ?? contractName);
        expect(properties, `${shape}.${contractName}`).toContain(apiName);
      }
    }
    expect(Object.keys(lb.models.Patient.definition.properties)).not.toContain('birthDate');
  });

  test('is written on its own: nothing in it imports the built-in upstream, the gateway or the client schemas', () => {
    const dir = join(ROOT, 'test', 'helpers', 'lb3-upstream');
    for (const file of readdirSync(dir)) {
      const imports = [...readFileSync(join(dir, file), 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1]);
      expect(
        imports.filter((path) => path.startsWith('.') && !path.startsWith('./')),
        file,
      ).toEqual([]);
    }
  });
});

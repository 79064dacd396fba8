import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { ROOT } from '../helpers/e2e-server.ts';
import { createLb3App } from '../helpers/lb3-upstream/app.ts';
import { LB3_ACCOUNTS, LB3_PASSWORD } from '../helpers/lb3-upstream/seed.ts';

// The second test upstream is only worth something if it really answers the LoopBack 3 way and owes nothing
// to the built-in upstream; these pin the habits issue 12 names.
async function signedIn() {
  const { app } = createLb3App();
  const login = await request(app).post('/v2/auth/login').send({ email: LB3_ACCOUNTS.coach, password: LB3_PASSWORD });
  return { app, login, auth: `Bearer ${login.body.id}` };
}

describe('the LoopBack-style test upstream', () => {
  test('answers login with an AccessToken { id, ttl, created, userId, user } whose user has only id, email and the four flags', async () => {
    const { login } = await signedIn();
    expect(login.status).toBe(200);
    expect(Object.keys(login.body).sort()).toEqual(['created', 'id', 'ttl', 'user', 'userId']);
    expect(typeof login.body.userId).toBe('number');
    expect(Object.keys(login.body.user).sort()).toEqual(['email', 'id', 'isAdmin', 'isHealthManager', 'isSuperAdmin', 'isUserLocked']);
  });

  test('uses numeric ids and sends no X-Total-Count; limit 0 answers every row', async () => {
    const { app, auth } = await signedIn();
    const list = await request(app)
      .get('/v2/patients')
      .query({ filter: JSON.stringify({ limit: 2 }) })
      .set('Authorization', auth);
    expect(list.body).toHaveLength(2);
    expect(typeof list.body[0].id).toBe('number');
    expect(list.headers['x-total-count']).toBeUndefined();
    const all = await request(app)
      .get('/v2/patients')
      .query({ filter: JSON.stringify({ limit: 0 }) })
      .set('Authorization', auth);
    expect(all.body.length).toBeGreaterThan(2);
  });

  test('errors are { error: { statusCode, name, message } } without code or details', async () => {
    const { app, auth } = await signedIn();
    const missing = await request(app).get('/v2/patients/999').set('Authorization', auth);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: { statusCode: 404, name: 'Error', message: 'Unknown "Patient" id "999".' } });
  });

  test('answers an unknown or expired token with 401 and an empty body', async () => {
    let now = Date.parse('2026-06-01T08:00:00Z');
    const { app } = createLb3App({ now: () => new Date(now) });
    const unknown = await request(app).get('/v2/auth/me').set('Authorization', 'Bearer 0123456789abcdef');
    expect([unknown.status, unknown.text]).toEqual([401, '']);
    const login = await request(app).post('/v2/auth/login').send({ email: LB3_ACCOUNTS.coach, password: LB3_PASSWORD });
    const me = () => request(app).get('/v2/auth/me').set('Authorization', `Bearer ${login.body.id}`);
    expect((await me()).status).toBe(200);
    now += (login.body.ttl + 1) * 1000;
    const expired = await me();
    expect([expired.status, expired.text]).toEqual([401, '']);
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

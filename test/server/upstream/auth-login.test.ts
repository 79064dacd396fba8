import { describe, expect, vi } from 'vitest';
import request from 'supertest';
import * as v from 'valibot';
import { PASSWORD } from '../../helpers/upstream-app.ts';
import { LoginResponseSchema, MeSchema } from '../../../contract/schemas/auth.ts';
import { upstreamTest } from '../../helpers/upstream-test.ts';

// Signing in and out of the upstream: login, the token and its end, GET /auth/me, and the rate limits on the
// sign-in routes. Passwords and the reset link: auth-password.test.ts.

const test = upstreamTest();

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('login', () => {
  test('answers the access token, its ttl and the signed-in coach', async ({ upstream }) => {
    const t = await upstream();
    const res = await request(t.app).post('/v2/auth/login').send({ email: 'Admin@Example.org', password: PASSWORD });
    expect(res.status).toBe(200);
    const body = v.parse(LoginResponseSchema, res.body);
    expect(body.userId).toBe('admin');
    expect(body.user.isAdmin).toBe(true);
    expect(body.ttl).toBeGreaterThan(0);
    const me = await request(t.app).get('/v2/auth/me').set(bearer(body.id));
    expect(me.status).toBe(200);
    expect(v.parse(MeSchema, me.body).email).toBe('admin@example.org');
  });

  test('answers 401 for a wrong password and for an unknown email alike', async ({ upstream }) => {
    const t = await upstream();
    const wrong = await request(t.app).post('/v2/auth/login').send({ email: 'coach@example.org', password: 'falsch-falsch' });
    const unknown = await request(t.app).post('/v2/auth/login').send({ email: 'nobody@example.org', password: PASSWORD });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.error.code).toBe(unknown.body.error.code);
  });

  test('answers 403 for a locked account with the right password', async ({ upstream }) => {
    const t = await upstream();
    const res = await request(t.app).post('/v2/auth/login').send({ email: 'locked@example.org', password: PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('ACCOUNT_LOCKED');
  });

  test('a coach locked after login gets 401 on the next call', async ({ upstream }) => {
    const t = await upstream();
    const token = await t.login('coach@example.org');
    const admin = await t.login('admin@example.org');
    expect((await request(t.app).get('/v2/auth/me').set(bearer(token))).status).toBe(200);
    await request(t.app).patch('/v2/coaches/coach').set(bearer(admin)).send({ isUserLocked: true }).expect(200);
    expect((await request(t.app).get('/v2/auth/me').set(bearer(token))).status).toBe(401);
    expect((await request(t.app).get('/v2/patients').set(bearer(token))).status).toBe(401);
  });

  test('the token stops working after its ttl', async ({ upstream }) => {
    const t = await upstream({ session: { maxHours: 1, idleMinutes: 60 } });
    const login = await request(t.app).post('/v2/auth/login').send({ email: 'coach@example.org', password: PASSWORD });
    expect(login.body.ttl).toBe(3600);
    t.clock.advance(3599);
    expect((await request(t.app).get('/v2/auth/me').set(bearer(login.body.id))).status).toBe(200);
    t.clock.advance(2);
    expect((await request(t.app).get('/v2/auth/me').set(bearer(login.body.id))).status).toBe(401);
  });

  test('tokens are stored only as hashes', async ({ upstream }) => {
    const t = await upstream();
    const token = await t.login('coach@example.org');
    const rows = await t.storage.db.selectFrom('access_tokens').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    const coach = await t.storage.db.selectFrom('coaches').select('passwordHash').where('id', '=', 'coach').executeTakeFirstOrThrow();
    expect(coach.passwordHash).toMatch(/^scrypt\$/);
    expect(coach.passwordHash).not.toContain(PASSWORD);
  });
});

test('logout revokes the token', async ({ upstream }) => {
  const t = await upstream();
  const token = await t.login('coach@example.org');
  expect((await request(t.app).post('/v2/auth/logout').set(bearer(token))).status).toBe(204);
  expect((await request(t.app).get('/v2/auth/me').set(bearer(token))).status).toBe(401);
});

test('GET /auth/me answers 401 without a token and with an unknown one', async ({ upstream }) => {
  const t = await upstream();
  expect((await request(t.app).get('/v2/auth/me')).status).toBe(401);
  const res = await request(t.app).get('/v2/auth/me').set(bearer('made-up'));
  expect(res.status).toBe(401);
  expect(res.body.error).toMatchObject({ statusCode: 401, name: 'UnauthorizedError' });
});

describe('rate limits', () => {
  test('login answers 429 with Retry-After after too many failed attempts on one account from one address, until the window ends', async ({ upstream }) => {
    // The limiter counts in real time (Date), not on the test clock: only Date is faked, and moved by hand.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const t = await upstream({ rateLimits: { perAccount: 3, perIp: 100, windowSeconds: 60 } });
      for (let i = 0; i < 3; i++) {
        expect((await request(t.app).post('/v2/auth/login').send({ email: 'coach@example.org', password: 'falsch-falsch' })).status).toBe(401);
      }
      const limited = await request(t.app).post('/v2/auth/login').send({ email: 'coach@example.org', password: PASSWORD });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.body.error.code).toBe('RATE_LIMITED');
      // Other accounts are unaffected, and the window ends.
      await t.login('admin@example.org');
      vi.setSystemTime(Date.now() + 61_000);
      await t.login('coach@example.org');
    } finally {
      vi.useRealTimers();
    }
  });

  test('successful logins do not use up the account limit', async ({ upstream }) => {
    const t = await upstream({ rateLimits: { perAccount: 2, perIp: 100, windowSeconds: 60 } });
    for (let i = 0; i < 4; i++) await t.login('coach@example.org');
  });

  test('login, forgot-password and set-password answer 429 per IP', async ({ upstream }) => {
    const t = await upstream({ rateLimits: { perAccount: 100, perIp: 2, windowSeconds: 60 } });
    for (const [path, body] of [
      ['/v2/auth/login', { email: 'a@example.org', password: 'x' }],
      ['/v2/auth/forgot-password', { email: 'a@example.org' }],
      ['/v2/auth/me/set-password', { password: 'Ganz-Neu-123' }],
    ] as const) {
      await request(t.app).post(path).send(body);
      await request(t.app).post(path).send(body);
      const res = await request(t.app).post(path).send(body);
      expect(res.status, path).toBe(429);
      expect(res.headers['retry-after'], path).toBeDefined();
    }
  });

  test('forgot-password answers 429 after too many requests for one address', async ({ upstream }) => {
    const t = await upstream({ rateLimits: { perAccount: 2, perIp: 100, windowSeconds: 60 } });
    await request(t.app).post('/v2/auth/forgot-password').send({ email: 'coach@example.org' }).expect(204);
    await request(t.app).post('/v2/auth/forgot-password').send({ email: 'coach@example.org' }).expect(204);
    expect((await request(t.app).post('/v2/auth/forgot-password').send({ email: 'coach@example.org' })).status).toBe(429);
    await t.settled();
    expect(t.outbox()).toHaveLength(2);
  });
});

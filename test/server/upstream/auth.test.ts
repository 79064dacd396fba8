import { afterEach, describe, expect, test, vi } from 'vitest';
import request from 'supertest';
import * as v from 'valibot';
import { createTestUpstream, PASSWORD, type TestUpstream } from '../../helpers/upstream-app.ts';
import { capturedLogger } from '../../helpers/upstream-log.ts';
import { LoginResponseSchema, MeSchema } from '../../../client/api/schemas/auth.ts';

let t: TestUpstream;
afterEach(() => t?.close());

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const linkFrom = (mail: string) => /https?:\/\/\S+\/reset-password\?access_token=(\S+)/.exec(mail);

describe('login', () => {
  test('answers the access token, its ttl and the signed-in coach', async () => {
    t = await createTestUpstream();
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

  test('answers 401 for a wrong password and for an unknown email alike', async () => {
    t = await createTestUpstream();
    const wrong = await request(t.app).post('/v2/auth/login').send({ email: 'coach@example.org', password: 'falsch-falsch' });
    const unknown = await request(t.app).post('/v2/auth/login').send({ email: 'nobody@example.org', password: PASSWORD });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.error.code).toBe(unknown.body.error.code);
  });

  test('answers 403 for a locked account with the right password', async () => {
    t = await createTestUpstream();
    const res = await request(t.app).post('/v2/auth/login').send({ email: 'locked@example.org', password: PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('ACCOUNT_LOCKED');
  });

  test('a coach locked after login gets 401 on the next call', async () => {
    t = await createTestUpstream();
    const token = await t.login('coach@example.org');
    const admin = await t.login('admin@example.org');
    expect((await request(t.app).get('/v2/auth/me').set(bearer(token))).status).toBe(200);
    await request(t.app).patch('/v2/coaches/coach').set(bearer(admin)).send({ isUserLocked: true }).expect(200);
    expect((await request(t.app).get('/v2/auth/me').set(bearer(token))).status).toBe(401);
    expect((await request(t.app).get('/v2/patients').set(bearer(token))).status).toBe(401);
  });

  test('the token stops working after its ttl', async () => {
    t = await createTestUpstream({ tokenTtlSeconds: 60 });
    const token = await t.login('coach@example.org');
    t.clock.advance(59);
    expect((await request(t.app).get('/v2/auth/me').set(bearer(token))).status).toBe(200);
    t.clock.advance(2);
    expect((await request(t.app).get('/v2/auth/me').set(bearer(token))).status).toBe(401);
  });

  test('tokens are stored only as hashes', async () => {
    t = await createTestUpstream();
    const token = await t.login('coach@example.org');
    const rows = await t.storage.db.selectFrom('access_tokens').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    const coach = await t.storage.db.selectFrom('coaches').select('passwordHash').where('id', '=', 'coach').executeTakeFirstOrThrow();
    expect(coach.passwordHash).toMatch(/^scrypt\$/);
    expect(coach.passwordHash).not.toContain(PASSWORD);
  });
});

test('logout revokes the token', async () => {
  t = await createTestUpstream();
  const token = await t.login('coach@example.org');
  expect((await request(t.app).post('/v2/auth/logout').set(bearer(token))).status).toBe(204);
  expect((await request(t.app).get('/v2/auth/me').set(bearer(token))).status).toBe(401);
});

test('GET /auth/me answers 401 without a token and with an unknown one', async () => {
  t = await createTestUpstream();
  expect((await request(t.app).get('/v2/auth/me')).status).toBe(401);
  const res = await request(t.app).get('/v2/auth/me').set(bearer('made-up'));
  expect(res.status).toBe(401);
  expect(res.body.error).toMatchObject({ statusCode: 401, name: 'UnauthorizedError' });
});

describe('update-password', () => {
  test('answers 400 naming oldPassword when it is wrong, and keeps the password', async () => {
    t = await createTestUpstream();
    const token = await t.login('coach@example.org');
    const res = await request(t.app)
      .patch('/v2/auth/me/update-password')
      .set(bearer(token))
      .send({ oldPassword: 'nicht-richtig', newPassword: 'Neues-Passwort-2' });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'oldPassword', message: 'Wrong password' }]);
    await t.login('coach@example.org');
  });

  test('changes the password and ends the other sessions', async () => {
    t = await createTestUpstream();
    const other = await t.login('coach@example.org');
    const token = await t.login('coach@example.org');
    await request(t.app).patch('/v2/auth/me/update-password').set(bearer(token)).send({ oldPassword: PASSWORD, newPassword: 'Neues-Passwort-2' }).expect(204);
    await t.login('coach@example.org', 'Neues-Passwort-2');
    expect((await request(t.app).post('/v2/auth/login').send({ email: 'coach@example.org', password: PASSWORD })).status).toBe(401);
    expect((await request(t.app).get('/v2/auth/me').set(bearer(token))).status).toBe(200);
    expect((await request(t.app).get('/v2/auth/me').set(bearer(other))).status).toBe(401);
  });

  test('answers 422 naming newPassword when it is shorter than 8 characters', async () => {
    t = await createTestUpstream();
    const token = await t.login('coach@example.org');
    const res = await request(t.app).patch('/v2/auth/me/update-password').set(bearer(token)).send({ oldPassword: PASSWORD, newPassword: 'kurz' });
    expect(res.status).toBe(422);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual(['newPassword']);
  });
});

describe('forgot-password and the reset link', () => {
  test('answers 204 for an unknown address and writes no mail', async () => {
    t = await createTestUpstream();
    const res = await request(t.app).post('/v2/auth/forgot-password').send({ email: 'nobody@example.org' });
    expect(res.status).toBe(204);
    expect(t.outbox()).toHaveLength(0);
  });

  test('writes the mail with the link to the outbox and logs the file name without the token', async () => {
    const log = capturedLogger();
    t = await createTestUpstream({ logger: log.logger, publicUrl: 'https://coach.example.org' });
    const res = await request(t.app).post('/v2/auth/forgot-password').send({ email: 'coach@example.org' });
    expect(res.status).toBe(204);
    const mails = t.outbox();
    expect(mails).toHaveLength(1);
    expect(mails[0].name).toMatch(/^\d{4}-\d{2}-\d{2}T.*\.eml$/);
    expect(mails[0].text).toContain('To: coach@example.org');
    const link = linkFrom(mails[0].text);
    expect(link?.[0]).toMatch(/^https:\/\/coach\.example\.org\/reset-password\?access_token=/);
    const token = decodeURIComponent(link![1]);
    const logged = log.raw.join('\n');
    expect(logged).toContain(mails[0].name);
    expect(logged).not.toContain(token);
    expect(logged).not.toContain('coach@example.org');
  });

  test('the link token sets a new password once, then the link is dead', async () => {
    t = await createTestUpstream();
    const session = await t.login('coach@example.org');
    await request(t.app).post('/v2/auth/forgot-password').send({ email: 'coach@example.org' }).expect(204);
    const token = decodeURIComponent(linkFrom(t.outbox()[0].text)![1]);
    // The link token is not a session.
    expect((await request(t.app).get('/v2/auth/me').set(bearer(token))).status).toBe(401);
    await request(t.app).post('/v2/auth/me/set-password').set(bearer(token)).send({ password: 'Ganz-Neu-123' }).expect(204);
    await t.login('coach@example.org', 'Ganz-Neu-123');
    expect((await request(t.app).get('/v2/auth/me').set(bearer(session))).status).toBe(401);
    const again = await request(t.app).post('/v2/auth/me/set-password').set(bearer(token)).send({ password: 'Noch-Einmal-1' });
    expect(again.status).toBe(401);
  });

  test('the link expires after 30 minutes', async () => {
    t = await createTestUpstream();
    await request(t.app).post('/v2/auth/forgot-password').send({ email: 'coach@example.org' }).expect(204);
    const token = decodeURIComponent(linkFrom(t.outbox()[0].text)![1]);
    t.clock.advance(30 * 60 + 1);
    expect((await request(t.app).post('/v2/auth/me/set-password').set(bearer(token)).send({ password: 'Ganz-Neu-123' })).status).toBe(401);
  });

  test('a login token cannot set a password without the old one', async () => {
    t = await createTestUpstream();
    const token = await t.login('coach@example.org');
    expect((await request(t.app).post('/v2/auth/me/set-password').set(bearer(token)).send({ password: 'Ganz-Neu-123' })).status).toBe(401);
  });

  test('every mailed link takes its origin from PUBLIC_URL, never from Host or X-Forwarded-*', async () => {
    t = await createTestUpstream({ publicUrl: 'https://portal.example.org/' });
    const forged = { Host: 'attacker.example', 'X-Forwarded-Host': 'evil.example.com', 'X-Forwarded-Proto': 'http' };
    await request(t.app).post('/v2/auth/forgot-password').set(forged).send({ email: 'coach@example.org' }).expect(204);
    const admin = await t.login('admin@example.org');
    await request(t.app).post('/v2/coaches/coach2/send-verification-email').set(forged).set(bearer(admin)).expect(204);
    await request(t.app).post('/v2/coaches/coach/reset-password').set(forged).set(bearer(admin)).expect(204);
    const links = t.outbox().map((mail) => /https?:\/\/\S+/.exec(mail.text)![0]);
    expect(links).toHaveLength(3);
    for (const link of links) expect(new URL(link).origin).toBe('https://portal.example.org');
    expect(links.map((link) => new URL(link).pathname).sort()).toEqual(['/reset-password', '/reset-password', '/v2/coaches/coach2/verify-email']);
  });

  test('without a configured origin the link still ignores the request (the built-in default, not Host)', async () => {
    t = await createTestUpstream();
    await request(t.app)
      .post('/v2/auth/forgot-password')
      .set('Host', 'attacker.example')
      .set('X-Forwarded-Host', 'evil.example.com')
      .send({ email: 'coach@example.org' })
      .expect(204);
    expect(linkFrom(t.outbox()[0].text)?.[0]).toMatch(/^http:\/\/localhost:8080\/reset-password\?/);
  });
});

describe('rate limits', () => {
  test('login answers 429 with Retry-After after too many failed attempts on one account from one address, until the window ends', async () => {
    // The limiter counts in real time (Date), not on the test clock: only Date is faked, and moved by hand.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      t = await createTestUpstream({ rateLimits: { perAccount: 3, perIp: 100, windowSeconds: 60 } });
      for (let i = 0; i < 3; i++) {
        expect((await request(t.app).post('/v2/auth/login').send({ email: 'coach@example.org', password: 'falsch-falsch' })).status).toBe(401);
      }
      const limited = await request(t.app).post('/v2/auth/login').send({ email: 'coach@example.org', password: PASSWORD });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.body.error.code).toBe('TOO_MANY_REQUESTS');
      // Other accounts are unaffected, and the window ends.
      await t.login('admin@example.org');
      vi.setSystemTime(Date.now() + 61_000);
      await t.login('coach@example.org');
    } finally {
      vi.useRealTimers();
    }
  });

  test('successful logins do not use up the account limit', async () => {
    t = await createTestUpstream({ rateLimits: { perAccount: 2, perIp: 100, windowSeconds: 60 } });
    for (let i = 0; i < 4; i++) await t.login('coach@example.org');
  });

  test('login, forgot-password and set-password answer 429 per IP', async () => {
    t = await createTestUpstream({ rateLimits: { perAccount: 100, perIp: 2, windowSeconds: 60 } });
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

  test('forgot-password answers 429 after too many requests for one address', async () => {
    t = await createTestUpstream({ rateLimits: { perAccount: 2, perIp: 100, windowSeconds: 60 } });
    await request(t.app).post('/v2/auth/forgot-password').send({ email: 'coach@example.org' }).expect(204);
    await request(t.app).post('/v2/auth/forgot-password').send({ email: 'coach@example.org' }).expect(204);
    expect((await request(t.app).post('/v2/auth/forgot-password').send({ email: 'coach@example.org' })).status).toBe(429);
    expect(t.outbox()).toHaveLength(2);
  });
});

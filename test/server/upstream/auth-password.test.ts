import { describe, expect } from 'vitest';
import request from 'supertest';
import { PASSWORD, type TestUpstream } from '../../helpers/upstream-app.ts';
import { capturedLogger } from '../../helpers/upstream-log.ts';
import { upstreamTest } from '../../helpers/upstream-test.ts';

// A coach's password on the upstream: changing it, and the mailed reset link. Login and its rate limits:
// auth-login.test.ts.

const test = upstreamTest();

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const linkFrom = (mail: string) => /https?:\/\/\S+\/reset-password\?access_token=(\S+)/.exec(mail);

describe('update-password', () => {
  test('answers 400 naming oldPassword when it is wrong, and keeps the password', async ({ upstream }) => {
    const t = await upstream();
    const token = await t.login('coach@example.org');
    const res = await request(t.app)
      .patch('/v2/auth/me/update-password')
      .set(bearer(token))
      .send({ oldPassword: 'nicht-richtig', newPassword: 'Neues-Passwort-2' });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'oldPassword', message: 'Wrong password' }]);
    await t.login('coach@example.org');
  });

  test('changes the password and ends the other sessions', async ({ upstream }) => {
    const t = await upstream();
    const other = await t.login('coach@example.org');
    const token = await t.login('coach@example.org');
    await request(t.app).patch('/v2/auth/me/update-password').set(bearer(token)).send({ oldPassword: PASSWORD, newPassword: 'Neues-Passwort-2' }).expect(204);
    await t.login('coach@example.org', 'Neues-Passwort-2');
    expect((await request(t.app).post('/v2/auth/login').send({ email: 'coach@example.org', password: PASSWORD })).status).toBe(401);
    expect((await request(t.app).get('/v2/auth/me').set(bearer(token))).status).toBe(200);
    expect((await request(t.app).get('/v2/auth/me').set(bearer(other))).status).toBe(401);
  });

  test('answers 422 naming newPassword when it is shorter than 8 characters', async ({ upstream }) => {
    const t = await upstream();
    const token = await t.login('coach@example.org');
    const res = await request(t.app).patch('/v2/auth/me/update-password').set(bearer(token)).send({ oldPassword: PASSWORD, newPassword: 'kurz' });
    expect(res.status).toBe(422);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual(['newPassword']);
  });
});

describe('forgot-password and the reset link', () => {
  test('answers 204 for an unknown address and writes no mail', async ({ upstream }) => {
    const t = await upstream();
    const res = await request(t.app).post('/v2/auth/forgot-password').send({ email: 'nobody@example.org' });
    await t.settled();
    expect(res.status).toBe(204);
    expect(t.outbox()).toHaveLength(0);
  });

  test('writes the mail with the link to the outbox and logs the file name without the token', async ({ upstream }) => {
    const log = capturedLogger();
    const t = await upstream({ logger: log.logger, publicUrl: 'https://coach.example.org' });
    const res = await request(t.app).post('/v2/auth/forgot-password').send({ email: 'coach@example.org' });
    await t.settled();
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

  test('the link token sets a new password once, then the link is dead', async ({ upstream }) => {
    const t = await upstream();
    const session = await t.login('coach@example.org');
    await request(t.app).post('/v2/auth/forgot-password').send({ email: 'coach@example.org' }).expect(204);
    await t.settled();
    const token = decodeURIComponent(linkFrom(t.outbox()[0].text)![1]);
    // The link token is not a session.
    expect((await request(t.app).get('/v2/auth/me').set(bearer(token))).status).toBe(401);
    await request(t.app).post('/v2/auth/me/set-password').set(bearer(token)).send({ password: 'Ganz-Neu-123' }).expect(204);
    await t.login('coach@example.org', 'Ganz-Neu-123');
    expect((await request(t.app).get('/v2/auth/me').set(bearer(session))).status).toBe(401);
    const again = await request(t.app).post('/v2/auth/me/set-password').set(bearer(token)).send({ password: 'Noch-Einmal-1' });
    expect(again.status).toBe(401);
  });

  test('the same link sent twice at the same moment sets one password; the other request is refused', async ({ upstream }) => {
    const t = await upstream();
    await request(t.app).post('/v2/auth/forgot-password').send({ email: 'coach@example.org' }).expect(204);
    await t.settled();
    const token = decodeURIComponent(linkFrom(t.outbox()[0].text)![1]);
    const passwords = ['Ganz-Neu-123', 'Blaue-Tasse-Rotes-Rad'];
    const answers = await Promise.all(passwords.map((password) => request(t.app).post('/v2/auth/me/set-password').set(bearer(token)).send({ password })));
    expect(answers.map((res) => res.status).sort()).toEqual([204, 401]);
    const set = passwords[answers.findIndex((res) => res.status === 204)];
    await t.login('coach@example.org', set);
    expect(
      (
        await request(t.app)
          .post('/v2/auth/login')
          .send({ email: 'coach@example.org', password: passwords.find((p) => p !== set) })
      ).status,
    ).toBe(401);
  });

  test('the link expires after 30 minutes', async ({ upstream }) => {
    const t = await upstream();
    await request(t.app).post('/v2/auth/forgot-password').send({ email: 'coach@example.org' }).expect(204);
    await t.settled();
    const token = decodeURIComponent(linkFrom(t.outbox()[0].text)![1]);
    t.clock.advance(30 * 60 + 1);
    expect((await request(t.app).post('/v2/auth/me/set-password').set(bearer(token)).send({ password: 'Ganz-Neu-123' })).status).toBe(401);
  });

  test('a login token cannot set a password without the old one', async ({ upstream }) => {
    const t = await upstream();
    const token = await t.login('coach@example.org');
    expect((await request(t.app).post('/v2/auth/me/set-password').set(bearer(token)).send({ password: 'Ganz-Neu-123' })).status).toBe(401);
  });

  test('every mailed link takes its origin from PUBLIC_URL, never from Host or X-Forwarded-*', async ({ upstream }) => {
    const t = await upstream({ publicUrl: 'https://portal.example.org/' });
    const forged = { Host: 'attacker.example', 'X-Forwarded-Host': 'evil.example.com', 'X-Forwarded-Proto': 'http' };
    await request(t.app).post('/v2/auth/forgot-password').set(forged).send({ email: 'coach@example.org' }).expect(204);
    await t.settled();
    const admin = await t.login('admin@example.org');
    await request(t.app).post('/v2/coaches/coach2/send-verification-email').set(forged).set(bearer(admin)).expect(204);
    await request(t.app).post('/v2/coaches/coach/reset-password').set(forged).set(bearer(admin)).expect(204);
    const links = t.outbox().map((mail) => /https?:\/\/\S+/.exec(mail.text)![0]);
    expect(links).toHaveLength(3);
    for (const link of links) expect(new URL(link).origin).toBe('https://portal.example.org');
    expect(links.map((link) => new URL(link).pathname).sort()).toEqual(['/reset-password', '/reset-password', '/v2/coaches/coach2/verify-email']);
  });

  test('without a configured origin the link still ignores the request (the built-in default, not Host)', async ({ upstream }) => {
    const t = await upstream();
    await request(t.app)
      .post('/v2/auth/forgot-password')
      .set('Host', 'attacker.example')
      .set('X-Forwarded-Host', 'evil.example.com')
      .send({ email: 'coach@example.org' })
      .expect(204);
    await t.settled();
    expect(linkFrom(t.outbox()[0].text)?.[0]).toMatch(/^http:\/\/localhost:8080\/reset-password\?/);
  });
});

describe('a new password ends the links mailed before it', () => {
  const verifyLink = (t: TestUpstream) =>
    /(\/v2\/coaches\/coach2\/verify-email\?token=\S+)/.exec(t.outbox().find((m) => m.text.includes('verify-email'))!.text)![1];
  const resetToken = (t: TestUpstream) => decodeURIComponent(linkFrom(t.outbox().find((m) => m.text.includes('reset-password'))!.text)![1]);
  async function mailBothLinks(t: TestUpstream) {
    const admin = await t.login('admin@example.org');
    await request(t.app).post('/v2/coaches/coach2/send-verification-email').set(bearer(admin)).expect(204);
    await request(t.app).post('/v2/auth/forgot-password').send({ email: 'coach2@example.org' }).expect(204);
    await t.settled(); // the reset mail is written after the answer
    return { verify: verifyLink(t), reset: resetToken(t) };
  }

  test('changing the password ends an outstanding reset link and verification link', async ({ upstream }) => {
    const t = await upstream();
    const links = await mailBothLinks(t);
    const session = await t.login('coach2@example.org');
    await request(t.app).patch('/v2/auth/me/update-password').set(bearer(session)).send({ oldPassword: PASSWORD, newPassword: 'Neues-Passwort-2' }).expect(204);
    expect((await request(t.app).post('/v2/auth/me/set-password').set(bearer(links.reset)).send({ password: 'Ganz-Neu-123' })).status).toBe(401);
    expect((await request(t.app).get(links.verify)).status).toBe(400);
    await t.login('coach2@example.org', 'Neues-Passwort-2');
  });

  test('setting a password from a reset link ends every session and an outstanding verification link', async ({ upstream }) => {
    const t = await upstream();
    const first = await t.login('coach2@example.org');
    const second = await t.login('coach2@example.org');
    const links = await mailBothLinks(t);
    await request(t.app).post('/v2/auth/me/set-password').set(bearer(links.reset)).send({ password: 'Ganz-Neu-123' }).expect(204);
    for (const token of [first, second]) expect((await request(t.app).get('/v2/auth/me').set(bearer(token))).status).toBe(401);
    expect((await request(t.app).get(links.verify)).status).toBe(400);
  });
});

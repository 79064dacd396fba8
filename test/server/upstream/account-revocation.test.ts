import { describe, expect } from 'vitest';
import request from 'supertest';
import { type KyselyPlugin, type QueryId, SelectQueryNode } from 'kysely';
import * as v from 'valibot';
import { PASSWORD, type TestUpstream } from '../../helpers/upstream-app.ts';
import { CoachSchema } from '../../../contract/schemas/coaches.ts';
import { upstreamTest } from '../../helpers/upstream-test.ts';

// What ends a coach's sessions and mailed links, and what never brings them back: locking, deleting, a new
// password, a confirmed new address (contract points 4 and 6). Link = the reset or verification link of a mail.

const test = upstreamTest();
const as = (token: string) => ({ Authorization: `Bearer ${token}` });
const me = async (t: TestUpstream, token: string) => (await request(t.app).get('/v2/auth/me').set(as(token))).status;
const setPassword = (t: TestUpstream, token: string, password = 'Kaffeetasse-Sommer-42') =>
  request(t.app).post('/v2/auth/me/set-password').set(as(token)).send({ password });

/** The reset link token of the newest mail to `address`. */
function resetToken(t: TestUpstream, address: string): string {
  const mail = t.outbox().findLast((m) => m.text.includes(`To: ${address}`) && m.text.includes('access_token='));
  return decodeURIComponent(/access_token=(\S+)/.exec(mail!.text)![1]);
}
/** The verification link (path and query) of the newest mail to `address`. */
function verifyLink(t: TestUpstream, address: string): string {
  const mail = t.outbox().findLast((m) => m.text.includes(`To: ${address}`) && m.text.includes('verify-email'));
  return /https?:\/\/[^/\s]+(\/v2\/coaches\/\S+)/.exec(mail!.text)![1];
}
async function forgot(t: TestUpstream, address: string) {
  await request(t.app).post('/v2/auth/forgot-password').send({ email: address }).expect(204);
  await t.settled();
  return resetToken(t, address);
}

describe('locking and deleting', () => {
  test('a session and a reset link from before the lock stay dead after unlocking', async ({ upstream }) => {
    const t = await upstream();
    const admin = await t.login('admin@example.org');
    const session = await t.login('coach@example.org');
    const link = await forgot(t, 'coach@example.org');
    await request(t.app).patch('/v2/coaches/coach').set(as(admin)).send({ isUserLocked: true }).expect(200);
    expect(await me(t, session)).toBe(401);
    await request(t.app).patch('/v2/coaches/coach').set(as(admin)).send({ isUserLocked: false }).expect(200);
    expect(await me(t, session)).toBe(401);
    expect((await setPassword(t, link)).status).toBe(401);
    // The account itself works again: a new login does.
    expect(await me(t, await t.login('coach@example.org'))).toBe(200);
  });

  test('a deleted coach’s session ends', async ({ upstream }) => {
    const t = await upstream();
    const admin = await t.login('admin@example.org');
    const session = await t.login('health@example.org');
    await request(t.app).delete('/v2/coaches/health').set(as(admin)).expect(204);
    expect(await me(t, session)).toBe(401);
  });
});

describe('a login still checking its password when the account changes', () => {
  // The password check takes a while (scrypt); what commits meanwhile must not leave a token that outlives it.
  const loginInFlight = (t: TestUpstream) =>
    request(t.app)
      .post('/v2/auth/login')
      .send({ email: 'coach@example.org', password: PASSWORD })
      .then((res) => res);

  test('gets no token that an unlock revives when the account is locked meanwhile', async ({ upstream }) => {
    const t = await upstream();
    const admin = await t.login('admin@example.org');
    const login = loginInFlight(t);
    await request(t.app).patch('/v2/coaches/coach').set(as(admin)).send({ isUserLocked: true }).expect(200);
    const answer = await login;
    await request(t.app).patch('/v2/coaches/coach').set(as(admin)).send({ isUserLocked: false }).expect(200);
    // Either it got in before the lock (and the lock ended its token) or it was refused.
    if (answer.status === 200) expect(await me(t, answer.body.id)).toBe(401);
    else expect(answer.body.error.code).toBe('ACCOUNT_LOCKED');
  });

  test('gets no token that outlives a new address confirmed meanwhile', async ({ upstream }) => {
    const t = await upstream();
    const admin = await t.login('admin@example.org');
    await request(t.app).patch('/v2/coaches/coach').set(as(admin)).send({ email: 'neu.coach@example.org' }).expect(200);
    const confirm = verifyLink(t, 'neu.coach@example.org');
    const login = loginInFlight(t);
    await request(t.app).get(confirm).expect(204);
    const answer = await login;
    if (answer.status === 200) expect(await me(t, answer.body.id)).toBe(401);
    else expect(answer.status).toBe(401);
  });

  test('gets no token that outlives a password reset done meanwhile', async ({ upstream }) => {
    const t = await upstream();
    const link = await forgot(t, 'coach@example.org');
    const login = loginInFlight(t);
    await setPassword(t, link).expect(204);
    const answer = await login;
    if (answer.status === 200) expect(await me(t, answer.body.id)).toBe(401);
    else expect(answer.status).toBe(401);
  });
});

/** While `on.slow`, holds the answer to every lookup of a coach by address (forgot-password's) for 150 ms. */
function slowLookupsByAddress(on: { slow: boolean }): KyselyPlugin {
  const lookups = new Set<QueryId>();
  return {
    transformQuery({ node, queryId }) {
      const text = JSON.stringify(node);
      if (on.slow && SelectQueryNode.is(node) && text.includes('"coaches"') && text.includes('"email"')) lookups.add(queryId);
      return node;
    },
    async transformResult({ queryId, result }) {
      if (lookups.delete(queryId)) await new Promise((resolve) => setTimeout(resolve, 150));
      return result;
    },
  };
}

describe('a reset mail still being prepared when the account is locked', () => {
  test('carries no link that works after an unlock', async ({ upstream }) => {
    const on = { slow: false };
    const t = await upstream({ dbPlugin: slowLookupsByAddress(on) });
    const admin = await t.login('admin@example.org');
    on.slow = true;
    await request(t.app).post('/v2/auth/forgot-password').send({ email: 'coach@example.org' }).expect(204);
    await request(t.app).patch('/v2/coaches/coach').set(as(admin)).send({ isUserLocked: true }).expect(200);
    await t.settled();
    on.slow = false;
    await request(t.app).patch('/v2/coaches/coach').set(as(admin)).send({ isUserLocked: false }).expect(200);
    const mail = t.outbox().findLast((m) => m.text.includes('To: coach@example.org') && m.text.includes('access_token='));
    if (mail) expect((await setPassword(t, resetToken(t, 'coach@example.org'))).status).toBe(401);
  });
});

describe('reset links', () => {
  test('a new reset link ends the older ones', async ({ upstream }) => {
    const t = await upstream();
    const first = await forgot(t, 'coach@example.org');
    // Outbox files are named by the (test) clock: a second later, the second mail sorts last.
    t.clock.advance(1);
    const second = await forgot(t, 'coach@example.org');
    expect((await setPassword(t, first)).status).toBe(401);
    await setPassword(t, second).expect(204);
  });

  test('a password change ends the reset and verification links sent before it', async ({ upstream }) => {
    const t = await upstream();
    const admin = await t.login('admin@example.org');
    const reset = await forgot(t, 'coach2@example.org');
    await request(t.app).post('/v2/coaches/coach2/send-verification-email').set(as(admin)).expect(204);
    const verify = verifyLink(t, 'coach2@example.org');
    const session = await t.login('coach2@example.org');
    await request(t.app)
      .patch('/v2/auth/me/update-password')
      .set(as(session))
      .send({ oldPassword: PASSWORD, newPassword: 'Kaffeetasse-Sommer-42' })
      .expect(204);
    expect((await setPassword(t, reset)).status).toBe(401);
    expect((await request(t.app).get(verify)).status).toBe(400);
  });

  test('a reset link works only while the account has the address it was sent to', async ({ upstream }) => {
    const t = await upstream();
    const admin = await t.login('admin@example.org');
    const link = await forgot(t, 'coach@example.org');
    await request(t.app).patch('/v2/coaches/coach').set(as(admin)).send({ email: 'neu.coach@example.org' }).expect(200);
    await request(t.app).get(verifyLink(t, 'neu.coach@example.org')).expect(204);
    expect((await setPassword(t, link)).status).toBe(401);
  });

  test('also when the address is changed outside the API (an operator in the database)', async ({ upstream }) => {
    const t = await upstream();
    const link = await forgot(t, 'coach@example.org');
    await t.storage.db.updateTable('coaches').set({ email: 'anders@example.org' }).where('id', '=', 'coach').execute();
    expect((await setPassword(t, link)).status).toBe(401);
  });
});

describe('changing the email address', () => {
  test('waits in pendingEmail, mails a link to the new address and a notice to the old one', async ({ upstream }) => {
    const t = await upstream();
    const admin = await t.login('admin@example.org');
    const res = await request(t.app).patch('/v2/coaches/coach').set(as(admin)).send({ email: 'Neu.Coach@example.org' });
    expect(v.parse(CoachSchema, res.body)).toMatchObject({ email: 'coach@example.org', pendingEmail: 'neu.coach@example.org', emailVerified: true });
    const mails = t.outbox().map((mail) => mail.text);
    expect(mails).toHaveLength(2);
    expect(mails.find((text) => text.includes('To: neu.coach@example.org'))).toContain('/v2/coaches/coach/verify-email?token=');
    const notice = mails.find((text) => text.includes('To: coach@example.org'));
    expect(notice).toContain('neue E-Mail-Adresse eingetragen');
    expect(notice).not.toContain('verify-email');
    // Until it is confirmed, the old address is the one to sign in with.
    await t.login('coach@example.org');
  });

  test('opening the link moves the address, verifies it and ends every session of the account', async ({ upstream }) => {
    const t = await upstream();
    const admin = await t.login('admin@example.org');
    const session = await t.login('coach@example.org');
    await request(t.app).put('/v2/coaches/coach').set(as(admin)).send({ email: 'neu.coach@example.org', firstName: 'coach', lastName: 'Test' }).expect(200);
    await request(t.app).get(verifyLink(t, 'neu.coach@example.org')).expect(204);
    expect(await me(t, session)).toBe(401);
    const row = await request(t.app).get('/v2/coaches/coach').set(as(admin));
    expect(v.parse(CoachSchema, row.body)).toMatchObject({ email: 'neu.coach@example.org', pendingEmail: null, emailVerified: true });
    await t.login('neu.coach@example.org');
    expect((await request(t.app).post('/v2/auth/login').send({ email: 'coach@example.org', password: PASSWORD })).status).toBe(401);
  });

  test('a link to an address that is no longer pending is dead', async ({ upstream }) => {
    const t = await upstream();
    const admin = await t.login('admin@example.org');
    await request(t.app).patch('/v2/coaches/coach').set(as(admin)).send({ email: 'erste@example.org' }).expect(200);
    const first = verifyLink(t, 'erste@example.org');
    await request(t.app).patch('/v2/coaches/coach').set(as(admin)).send({ email: 'zweite@example.org' }).expect(200);
    expect((await request(t.app).get(first)).status).toBe(400);
    const row = await t.storage.db.selectFrom('coaches').select(['email', 'pendingEmail']).where('id', '=', 'coach').executeTakeFirstOrThrow();
    expect(row).toEqual({ email: 'coach@example.org', pendingEmail: 'zweite@example.org' });
  });

  test('the verification mail goes again to the pending address, and its link confirms it', async ({ upstream }) => {
    const t = await upstream();
    const admin = await t.login('admin@example.org');
    await request(t.app).patch('/v2/coaches/coach').set(as(admin)).send({ email: 'neu.coach@example.org' }).expect(200);
    t.clock.advance(1);
    await request(t.app).post('/v2/coaches/coach/send-verification-email').set(as(admin)).expect(204);
    expect(t.outbox().filter((mail) => mail.text.includes('To: neu.coach@example.org'))).toHaveLength(2);
    await request(t.app).get(verifyLink(t, 'neu.coach@example.org')).expect(204);
    await t.login('neu.coach@example.org');
  });

  test('an address taken by another account before the link is opened is a 409, and nothing changes', async ({ upstream }) => {
    const t = await upstream();
    const admin = await t.login('admin@example.org');
    await request(t.app).patch('/v2/coaches/coach').set(as(admin)).send({ email: 'neu.coach@example.org' }).expect(200);
    await request(t.app).post('/v2/coaches').set(as(admin)).send({ email: 'neu.coach@example.org', firstName: 'Andere', lastName: 'Person' }).expect(201);
    expect((await request(t.app).get(verifyLink(t, 'neu.coach@example.org'))).status).toBe(409);
    const row = await t.storage.db.selectFrom('coaches').select(['email', 'pendingEmail']).where('id', '=', 'coach').executeTakeFirstOrThrow();
    expect(row).toEqual({ email: 'coach@example.org', pendingEmail: 'neu.coach@example.org' });
  });

  test("another coach's address is refused with 409 and nothing is mailed", async ({ upstream }) => {
    const t = await upstream();
    const admin = await t.login('admin@example.org');
    const res = await request(t.app).patch('/v2/coaches/coach').set(as(admin)).send({ email: 'coach2@example.org' });
    expect(res.status).toBe(409);
    expect(res.body.error.details).toEqual([{ path: 'email', message: 'Already taken' }]);
    expect(t.outbox()).toEqual([]);
  });
});

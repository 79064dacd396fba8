import { describe, expect } from 'vitest';
import request from 'supertest';
import { PASSWORD } from '../../helpers/upstream-app.ts';
import { blocklistSize, passwordRefusal } from '../../../server/upstream/features/auth/password-policy.ts';
import { DEMO_COACHES, DEMO_PASSWORD } from '../../../server/upstream/seed/demo.ts';
import { upstreamTest } from '../../helpers/upstream-test.ts';

// The password rules of NIST SP 800-63B on the built-in upstream (lib/password-policy.ts): no common password,
// keyboard walk, sequence or repeat, nothing of the person's name or address; the length rule stays.

const test = upstreamTest();
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const clara = { email: 'clara.bergmann@example.org', firstName: 'Clara', lastName: 'Bergmann' };

describe('the blocklist', () => {
  test('holds at least 100,000 common passwords and words', async () => {
    expect(await blocklistSize()).toBeGreaterThanOrEqual(100_000);
  });

  test.each(['12345678', 'password', 'passwort', 'Passwort1', 'Passwort1!', 'PASSWORT2024', 'sommer2024!', 'P@ssw0rd'])(
    'refuses %s as too common',
    async (password) => {
      expect(await passwordRefusal(password, clara)).toBe('PASSWORD_TOO_COMMON');
    },
  );

  test.each(['qwertzui', 'asdfghjkl', 'yxcvbnm,.', '1q2w3e4r5t', 'aaaaaaaaaa', 'abcdefghij', '9876543210', 'hallohallohallo'])(
    'refuses %s: one keyboard walk, sequence or repeat is the whole password',
    async (password) => {
      expect(await passwordRefusal(password, clara)).toBe('PASSWORD_TOO_COMMON');
    },
  );

  test.each(['qwertz123', 'Qwertz123!', 'asdf1234', '1Passwort', '!Passwort1', '2024sommer', 'Hallo1234', '11111111!'])(
    'refuses %s: a common word or keyboard walk with digits and marks before or after it',
    async (password) => {
      expect(await passwordRefusal(password, clara)).toBe('PASSWORD_TOO_COMMON');
    },
  );

  test.each(['Kaffeetasse-Sommer-42', 'Neues-Passwort-2', 'Ganz-Neu-123', 'blaue Tasse, rotes Fahrrad'])('accepts the passphrase %s', async (password) => {
    expect(await passwordRefusal(password, clara)).toBeUndefined();
  });

  test('the demo password stays allowed for every demo account', async () => {
    for (const coach of DEMO_COACHES) expect(await passwordRefusal(DEMO_PASSWORD, coach), coach.email).toBeUndefined();
  });

  test('even the longest password allowed is checked in a moment, not seconds', async () => {
    const started = performance.now();
    expect(await passwordRefusal('%&/()=?'.repeat(28), clara)).toBeUndefined();
    // A backtracking check would take seconds or minutes on 196 characters; a busy machine adds milliseconds.
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('personal data', () => {
  test.each(['clara.bergmann', 'Bergmann-2026!', 'xXclaraXx99', 'CLARA-und-Kaffee'])('refuses %s: it holds the address or a name', async (password) => {
    expect(await passwordRefusal(password, clara)).toBe('PASSWORD_CONTAINS_PERSONAL_DATA');
  });

  // A name with umlauts, ß or accents counts in every way it is typed without them: "Jürgen" as juergen and
  // jurgen, "Weiß" as weiss, "Hélène" as helene; and the other way round.
  test.each([
    ['juergen-Tisch-9', { firstName: 'Jürgen', lastName: 'Kowalski' }],
    ['Jurgen-Tisch-9', { firstName: 'Jürgen', lastName: 'Kowalski' }],
    ['Tisch-WEISS-9', { firstName: 'Anna', lastName: 'Weiß' }],
    ['helene-Tisch-9', { firstName: 'Hélène', lastName: 'Dupont' }],
    ['Tisch-Bürkle-9', { firstName: 'Anna', lastName: 'Buerkle' }],
  ])('refuses %s for %j', async (password, person) => {
    expect(await passwordRefusal(password, { email: 'a.b@example.org', ...person })).toBe('PASSWORD_CONTAINS_PERSONAL_DATA');
  });

  test('parts shorter than three characters do not count', async () => {
    expect(await passwordRefusal('Kaffeetasse-Sommer-42', { email: 'li@example.org', firstName: 'Li', lastName: 'Su' })).toBeUndefined();
  });
});

describe('every call that sets a password refuses in the contract shape, naming its field', () => {
  test('PATCH /auth/me/update-password (newPassword)', async ({ upstream }) => {
    const t = await upstream();
    const token = await t.login('coach@example.org');
    const res = await request(t.app).patch('/v2/auth/me/update-password').set(bearer(token)).send({ oldPassword: PASSWORD, newPassword: 'qwertzuiop' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ statusCode: 400, code: 'PASSWORD_TOO_COMMON', details: [{ path: 'newPassword' }] });
    await t.login('coach@example.org');
  });

  test('POST /auth/me/set-password (password), and the link still works for a good one', async ({ upstream }) => {
    const t = await upstream();
    await request(t.app).post('/v2/auth/forgot-password').send({ email: 'coach@example.org' }).expect(204);
    await t.settled();
    const token = decodeURIComponent(/access_token=(\S+)/.exec(t.outbox()[0].text)![1]);
    // The fixture's coach is called "coach Test".
    const res = await request(t.app).post('/v2/auth/me/set-password').set(bearer(token)).send({ password: 'mein-coach-2026' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'PASSWORD_CONTAINS_PERSONAL_DATA', details: [{ path: 'password' }] });
    await request(t.app).post('/v2/auth/me/set-password').set(bearer(token)).send({ password: 'Kaffeetasse-Sommer-42' }).expect(204);
  });

  test('POST /coaches (password), against the names being created', async ({ upstream }) => {
    const t = await upstream();
    const admin = await t.login('admin@example.org');
    const coach = { email: 'neu@example.org', firstName: 'Gunhild', lastName: 'Wagenknecht' };
    const named = await request(t.app)
      .post('/v2/coaches')
      .set(bearer(admin))
      .send({ ...coach, password: 'Wagenknecht-77' });
    expect(named.body.error).toMatchObject({ statusCode: 400, code: 'PASSWORD_CONTAINS_PERSONAL_DATA', details: [{ path: 'password' }] });
    const common = await request(t.app)
      .post('/v2/coaches')
      .set(bearer(admin))
      .send({ ...coach, password: 'Passwort1' });
    expect(common.body.error).toMatchObject({ code: 'PASSWORD_TOO_COMMON', details: [{ path: 'password' }] });
    await request(t.app)
      .post('/v2/coaches')
      .set(bearer(admin))
      .send({ ...coach, password: 'Kaffeetasse-Sommer-42' })
      .expect(201);
    await t.login('neu@example.org', 'Kaffeetasse-Sommer-42');
  });
});

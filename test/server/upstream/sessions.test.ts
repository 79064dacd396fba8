import { describe, expect, test as base } from 'vitest';
import request from 'supertest';
import { Migrator } from 'kysely';
import { createUpstreamApp } from '../../../server/upstream/app.ts';
import { migrate } from '../../../server/upstream/db/index.ts';
import { migrations } from '../../../server/upstream/db/migrations/index.ts';
import { storageBefore } from '../../helpers/upstream-migrations.ts';
import { createTestUpstream, PASSWORD, type TestUpstream } from '../../helpers/upstream-app.ts';

/*
 * How long a login token lives on the built-in upstream (docs/contract.md#sessions): SESSION_IDLE_MINUTES without a
 * request, SESSION_MAX_HOURS after sign-in, and the caller ending their other sessions. The clock is the test's.
 * Password changes and resets ending sessions: auth-password.test.ts.
 */

const IDLE = 30 * 60;

const test = base.extend<{ t: TestUpstream }>({
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixtures a function asks for from its first parameter
  t: async ({}, use) => {
    const t = await createTestUpstream({ session: { idleMinutes: 30, maxHours: 12 } });
    await use(t);
    await t.close();
  },
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const me = (t: TestUpstream, token: string) => request(t.app).get('/v2/auth/me').set(bearer(token));

describe('login', () => {
  test('answers the maximum lifetime as ttl', async ({ t }) => {
    const res = await request(t.app).post('/v2/auth/login').send({ email: 'coach@example.org', password: PASSWORD });
    expect(res.body.ttl).toBe(12 * 3600);
  });

  test('answers the configured maximum lifetime as ttl', async () => {
    const t = await createTestUpstream({ session: { maxHours: 3 } });
    try {
      const res = await request(t.app).post('/v2/auth/login').send({ email: 'coach@example.org', password: PASSWORD });
      expect(res.body.ttl).toBe(3 * 3600);
    } finally {
      await t.close();
    }
  });
});

describe('the idle limit', () => {
  test('a token unused for longer than the idle time answers 401 SESSION_IDLE', async ({ t }) => {
    const token = await t.login('coach@example.org');
    t.clock.advance(IDLE + 1);
    const res = await me(t, token);
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ statusCode: 401, code: 'SESSION_IDLE' });
    expect((await request(t.app).get('/v2/patients').set(bearer(token))).status).toBe(401);
  });

  test('a token used within the idle time lives on, counted from its last use', async ({ t }) => {
    const token = await t.login('coach@example.org');
    for (let i = 0; i < 4; i++) {
      t.clock.advance(IDLE);
      expect((await me(t, token)).status).toBe(200);
    }
    t.clock.advance(IDLE + 1);
    expect((await me(t, token)).body.error.code).toBe('SESSION_IDLE');
  });

  test('every request moves the last use, even seconds after the one before', async ({ t }) => {
    const token = await t.login('coach@example.org');
    t.clock.advance(5);
    await me(t, token).expect(200);
    t.clock.advance(IDLE - 1);
    expect((await me(t, token)).status).toBe(200);
    t.clock.advance(20);
    await me(t, token).expect(200);
    t.clock.advance(IDLE - 1);
    expect((await me(t, token)).status).toBe(200);
  });

  test('a request answered 401 for idleness does not revive the token', async ({ t }) => {
    const token = await t.login('coach@example.org');
    t.clock.advance(IDLE + 1);
    await me(t, token).expect(401);
    t.clock.advance(1);
    expect((await me(t, token)).body.error.code).toBe('SESSION_IDLE');
  });

  test('other sessions of the same coach keep their own idle time', async ({ t }) => {
    const quiet = await t.login('coach@example.org');
    const busy = await t.login('coach@example.org');
    t.clock.advance(IDLE - 60);
    await me(t, busy).expect(200);
    t.clock.advance(120);
    await me(t, busy).expect(200);
    expect((await me(t, quiet)).body.error.code).toBe('SESSION_IDLE');
  });

  test('is as short as SESSION_IDLE_MINUTES=1 makes it', async () => {
    const t = await createTestUpstream({ session: { idleMinutes: 1 } });
    try {
      const token = await t.login('coach@example.org');
      t.clock.advance(50);
      await me(t, token).expect(200);
      t.clock.advance(59);
      await me(t, token).expect(200);
      t.clock.advance(61);
      expect((await me(t, token)).body.error.code).toBe('SESSION_IDLE');
    } finally {
      await t.close();
    }
  });

  test('a restarted upstream still knows the last use written before', async ({ t }) => {
    const token = await t.login('coach@example.org');
    t.clock.advance(10 * 60);
    await me(t, token).expect(200);
    const restarted = createUpstreamApp({ db: t.storage.db, clock: t.clock, logRequests: false, session: { idleMinutes: 30 } });
    t.clock.advance(IDLE - 1);
    expect((await request(restarted).get('/v2/auth/me').set(bearer(token))).status).toBe(200);
  });

  // Cheapness cannot be seen in an answer: the stored row is read to show that requests close together write once.
  test('writes the last use at most once a minute per token', async ({ t }) => {
    const token = await t.login('coach@example.org');
    const stored = async () => (await t.storage.db.selectFrom('access_tokens').select('lastUsedAt').executeTakeFirstOrThrow()).lastUsedAt;
    const signedIn = await stored();
    for (let i = 0; i < 5; i++) {
      t.clock.advance(10);
      await me(t, token).expect(200);
    }
    expect(await stored()).toBe(signedIn);
    t.clock.advance(15);
    await me(t, token).expect(200);
    expect(await stored()).toBe(t.clock.now().toISOString());
  });
});

describe('the maximum lifetime', () => {
  test('ends a token in constant use SESSION_MAX_HOURS after sign-in with 401 SESSION_EXPIRED', async ({ t }) => {
    const token = await t.login('coach@example.org');
    for (let minutes = 20; minutes < 12 * 60; minutes += 20) {
      t.clock.advance(20 * 60);
      expect((await me(t, token)).status, `after ${minutes} minutes`).toBe(200);
    }
    t.clock.advance(20 * 60);
    const res = await me(t, token);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('SESSION_EXPIRED');
  });

  test('a lower SESSION_MAX_HOURS after a restart also ends tokens issued before it', async ({ t }) => {
    const token = await t.login('coach@example.org');
    const stricter = createUpstreamApp({ db: t.storage.db, clock: t.clock, logRequests: false, session: { maxHours: 1, idleMinutes: 120 } });
    t.clock.advance(3600 - 1);
    await request(stricter).get('/v2/auth/me').set(bearer(token)).expect(200);
    t.clock.advance(1);
    expect((await request(stricter).get('/v2/auth/me').set(bearer(token))).body.error.code).toBe('SESSION_EXPIRED');
  });
});

describe('POST /auth/me/end-other-sessions', () => {
  test('ends every other token of the caller and keeps the one of this call', async ({ t }) => {
    const phone = await t.login('coach@example.org');
    const office = await t.login('coach@example.org');
    const current = await t.login('coach@example.org');
    await request(t.app).post('/v2/auth/me/end-other-sessions').set(bearer(current)).expect(204);
    expect((await me(t, current)).status).toBe(200);
    expect((await me(t, phone)).status).toBe(401);
    expect((await me(t, office)).status).toBe(401);
  });

  test("leaves other coaches' sessions alone", async ({ t }) => {
    const colleague = await t.login('coach2@example.org');
    const current = await t.login('coach@example.org');
    await request(t.app).post('/v2/auth/me/end-other-sessions').set(bearer(current)).expect(204);
    expect((await me(t, colleague)).status).toBe(200);
  });

  test('answers 401 without a live token', async ({ t }) => {
    expect((await request(t.app).post('/v2/auth/me/end-other-sessions')).status).toBe(401);
    const token = await t.login('coach@example.org');
    t.clock.advance(IDLE + 1);
    expect((await request(t.app).post('/v2/auth/me/end-other-sessions').set(bearer(token))).status).toBe(401);
  });

  test('ended tokens stay ended after the account is locked and unlocked', async ({ t }) => {
    const other = await t.login('coach@example.org');
    const current = await t.login('coach@example.org');
    await request(t.app).post('/v2/auth/me/end-other-sessions').set(bearer(current)).expect(204);
    const admin = await t.login('admin@example.org');
    await request(t.app).patch('/v2/coaches/coach').set(bearer(admin)).send({ isUserLocked: true }).expect(200);
    await request(t.app).patch('/v2/coaches/coach').set(bearer(admin)).send({ isUserLocked: false }).expect(200);
    expect((await me(t, other)).status).toBe(401);
  });
});

describe('the migration', () => {
  test('counts a token issued before it as last used at sign-in, and can be undone', async () => {
    const { db, schema, close } = await storageBefore('109-token-last-use');
    try {
      const at = '2026-11-22T09:00:00.000Z';
      await db
        .insertInto('coaches')
        .values({ id: 'old', email: 'old@example.org', firstName: 'Alt', lastName: 'Konto', createdAt: at, updatedAt: at })
        .execute();
      await db
        .insertInto('access_tokens')
        .values({ id: 'hash', coachId: 'old', kind: 'access', createdAt: at, expiresAt: '2026-12-06T09:00:00.000Z', usedAt: null })
        .execute();
      await migrate(db, schema);
      expect(await db.selectFrom('access_tokens').select('lastUsedAt').executeTakeFirstOrThrow()).toEqual({ lastUsedAt: at });
      const migrator = new Migrator({ db, ...(schema ? { migrationTableSchema: schema } : {}), provider: { getMigrations: async () => migrations } });
      const { error } = await migrator.migrateTo('108-patient-follow-up');
      expect(error).toBeUndefined();
      expect(Object.keys(await db.selectFrom('access_tokens').selectAll().executeTakeFirstOrThrow())).not.toContain('lastUsedAt');
    } finally {
      await close();
    }
  });
});

import { describe, expect } from 'vitest';
import request from 'supertest';
import { DeleteQueryNode, type KyselyPlugin, type QueryId, UpdateQueryNode } from 'kysely';
import { addCoach, type TestUpstream } from '../../helpers/upstream-app.ts';
import { upstreamTest } from '../../helpers/upstream-test.ts';

// Who may manage whose account (lib/coach-boundaries.ts): an administrator the plain coaches, only a super
// administrator the administrators, everyone themselves; and the last super administrator stays.

const test = upstreamTest();
const as = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Every call that manages one coach's account, as [name, request]. */
const MANAGING: [string, (t: TestUpstream, id: string, token: string) => request.Test][] = [
  ['PATCH', (t, id, token) => request(t.app).patch(`/v2/coaches/${id}`).set(as(token)).send({ title: 'Neu' })],
  [
    'PUT',
    (t, id, token) =>
      request(t.app)
        .put(`/v2/coaches/${id}`)
        .set(as(token))
        .send({ email: `${id}@example.org`, firstName: id, lastName: 'Test' }),
  ],
  ['lock', (t, id, token) => request(t.app).patch(`/v2/coaches/${id}`).set(as(token)).send({ isUserLocked: true })],
  ['reset-password', (t, id, token) => request(t.app).post(`/v2/coaches/${id}/reset-password`).set(as(token))],
  ['send-verification-email', (t, id, token) => request(t.app).post(`/v2/coaches/${id}/send-verification-email`).set(as(token))],
  ['end-sessions', (t, id, token) => request(t.app).post(`/v2/coaches/${id}/end-sessions`).set(as(token))],
  ['DELETE', (t, id, token) => request(t.app).delete(`/v2/coaches/${id}`).set(as(token))],
];

/** Adds a second administrator and a super administrator (e-mail not verified, like coach2). */
async function withAdmins(t: TestUpstream) {
  await addCoach(t.storage, 'admin2', { isAdmin: 1, firstName: 'Zweite' });
  await addCoach(t.storage, 'super', { isAdmin: 1, isSuperAdmin: 1 });
  await t.storage.db.updateTable('coaches').set({ emailVerified: 0 }).where('id', 'in', ['admin2', 'super', 'coach2']).execute();
}

describe('an administrator who is not a super administrator', () => {
  test.for(MANAGING)('gets 403 SUPER_ADMIN_REQUIRED for %s of an administrator or super administrator, and nothing happens', async ([_name, call], { t }) => {
    await withAdmins(t);
    const admin = await t.login('admin@example.org');
    for (const id of ['admin2', 'super']) {
      const session = await t.login(`${id}@example.org`);
      const res = await call(t, id, admin);
      expect(res.status, id).toBe(403);
      expect(res.body.error.code).toBe('SUPER_ADMIN_REQUIRED');
      expect((await request(t.app).get('/v2/auth/me').set(as(session))).status).toBe(200);
    }
    expect(t.outbox()).toEqual([]);
    const rows = await t.storage.db.selectFrom('coaches').select(['title', 'isUserLocked']).where('id', 'in', ['admin2', 'super']).execute();
    expect(rows).toEqual([
      { title: '', isUserLocked: 0 },
      { title: '', isUserLocked: 0 },
    ]);
  });

  test.for(MANAGING)('may %s a plain coach', async ([_name, call], { t }) => {
    await withAdmins(t);
    const admin = await t.login('admin@example.org');
    expect((await call(t, 'coach2', admin)).status).toBeLessThan(300);
  });

  test('may make a coach an administrator, but nobody a super administrator', async ({ t }) => {
    await withAdmins(t);
    const admin = await t.login('admin@example.org');
    expect((await request(t.app).patch('/v2/coaches/coach').set(as(admin)).send({ isAdmin: true })).body.isAdmin).toBe(true);
    const promote = await request(t.app).patch('/v2/coaches/coach2').set(as(admin)).send({ isSuperAdmin: true });
    expect(promote.status).toBe(403);
    expect(promote.body.error.code).toBe('SUPER_ADMIN_REQUIRED');
    const create = await request(t.app)
      .post('/v2/coaches')
      .set(as(admin))
      .send({ email: 'neu@example.org', firstName: 'Neu', lastName: 'Test', isSuperAdmin: true });
    expect(create.body.error.code).toBe('SUPER_ADMIN_REQUIRED');
    const row = await t.storage.db.selectFrom('coaches').select('isSuperAdmin').where('id', '=', 'coach2').executeTakeFirstOrThrow();
    expect(row.isSuperAdmin).toBe(0);
  });
});

describe('a super administrator', () => {
  test.for(MANAGING)('may %s an administrator', async ([_name, call], { t }) => {
    await withAdmins(t);
    const superAdmin = await t.login('super@example.org');
    expect((await call(t, 'admin2', superAdmin)).status).toBeLessThan(300);
  });

  test('may make and unmake super administrators', async ({ t }) => {
    await withAdmins(t);
    const superAdmin = await t.login('super@example.org');
    expect((await request(t.app).patch('/v2/coaches/admin').set(as(superAdmin)).send({ isSuperAdmin: true })).body.isSuperAdmin).toBe(true);
    expect((await request(t.app).patch('/v2/coaches/admin').set(as(superAdmin)).send({ isSuperAdmin: false })).body.isSuperAdmin).toBe(false);
  });
});

describe('the last super administrator', () => {
  test('cannot be locked, deleted or lose isSuperAdmin (409 LAST_SUPER_ADMIN); a locked one does not count', async ({ t }) => {
    await withAdmins(t);
    await addCoach(t.storage, 'super-locked', { isAdmin: 1, isSuperAdmin: 1, isUserLocked: 1 });
    const superAdmin = await t.login('super@example.org');
    for (const res of [
      await request(t.app).patch('/v2/coaches/super').set(as(superAdmin)).send({ isSuperAdmin: false }),
      await request(t.app).patch('/v2/coaches/super').set(as(superAdmin)).send({ isUserLocked: true }),
      await request(t.app).delete('/v2/coaches/super').set(as(superAdmin)),
    ]) {
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('LAST_SUPER_ADMIN');
    }
    const row = await t.storage.db.selectFrom('coaches').select(['isSuperAdmin', 'isUserLocked']).where('id', '=', 'super').executeTakeFirstOrThrow();
    expect(row).toEqual({ isSuperAdmin: 1, isUserLocked: 0 });
  });

  test('with a second one, either may lock or demote the other, until one is left', async ({ t }) => {
    await withAdmins(t);
    await addCoach(t.storage, 'super2', { isAdmin: 1, isSuperAdmin: 1 });
    const other = await t.login('super2@example.org');
    expect((await request(t.app).patch('/v2/coaches/super').set(as(other)).send({ isSuperAdmin: false })).status).toBe(200);
    const last = await request(t.app).patch('/v2/coaches/super2').set(as(other)).send({ isSuperAdmin: false });
    expect(last.body.error.code).toBe('LAST_SUPER_ADMIN');
  });
});

/** Holds every answer to a write of a coach row for `ms`, so that two writes both happen before either commits. */
function slowCoachWrites(ms: number): KyselyPlugin {
  const writes = new Set<QueryId>();
  return {
    transformQuery({ node, queryId }) {
      if (UpdateQueryNode.is(node) || DeleteQueryNode.is(node)) {
        if (JSON.stringify(node).includes('"coaches"')) writes.add(queryId);
      }
      return node;
    },
    async transformResult({ queryId, result }) {
      if (writes.delete(queryId)) await new Promise((resolve) => setTimeout(resolve, ms));
      return result;
    },
  };
}

describe('two super administrators at the same moment', () => {
  test.for([
    ['lock and delete', { isUserLocked: true }, 'delete'],
    ['demote and demote', { isSuperAdmin: false }, { isSuperAdmin: false }],
  ] as const)('who %s each other leave one of them', async ([_name, first, second], { upstream }) => {
    const t = await upstream({ dbPlugin: slowCoachWrites(150) });
    await addCoach(t.storage, 'supa', { isAdmin: 1, isSuperAdmin: 1 });
    await addCoach(t.storage, 'supb', { isAdmin: 1, isSuperAdmin: 1 });
    const [a, b] = [await t.login('supa@example.org'), await t.login('supb@example.org')];
    const answers = await Promise.all([
      request(t.app).patch('/v2/coaches/supb').set(as(a)).send(first),
      second === 'delete' ? request(t.app).delete('/v2/coaches/supa').set(as(b)) : request(t.app).patch('/v2/coaches/supa').set(as(b)).send(second),
    ]);
    // The later write is refused: 409 when both got past the first checks, or (where the first one committed
    // before the second was even authorised) 401/403 because its author is no longer an unlocked super administrator.
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status < 300)).toHaveLength(1);
    expect([401, 403, 409]).toContain(statuses.find((status) => status >= 300));
    const left = await t.storage.db.selectFrom('coaches').select('id').where('isSuperAdmin', '=', 1).where('isUserLocked', '=', 0).execute();
    expect(left).toHaveLength(1);
  });
});

describe('POST /coaches/{id}/end-sessions', () => {
  test("ends every login of a plain coach when an administrator asks; the coach's password still works", async ({ t }) => {
    await withAdmins(t);
    const admin = await t.login('admin@example.org');
    const sessions = [await t.login('coach@example.org'), await t.login('coach@example.org')];
    await request(t.app).post('/v2/coaches/coach/end-sessions').set(as(admin)).expect(204);
    for (const session of sessions) expect((await request(t.app).get('/v2/auth/me').set(as(session))).status).toBe(401);
    expect((await request(t.app).get('/v2/auth/me').set(as(admin))).status).toBe(200);
    await t.login('coach@example.org');
  });

  test('a coach ends their own other logins and keeps the current one, but nobody else’s', async ({ t }) => {
    await withAdmins(t);
    const other = await t.login('coach@example.org');
    const current = await t.login('coach@example.org');
    const colleague = await t.login('coach2@example.org');
    await request(t.app).post('/v2/coaches/coach/end-sessions').set(as(current)).expect(204);
    expect((await request(t.app).get('/v2/auth/me').set(as(other))).status).toBe(401);
    expect((await request(t.app).get('/v2/auth/me').set(as(current))).status).toBe(200);
    const refused = await request(t.app).post('/v2/coaches/coach2/end-sessions').set(as(current));
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('ADMIN_REQUIRED');
    expect((await request(t.app).get('/v2/auth/me').set(as(colleague))).status).toBe(200);
  });

  test('answers 404 for an unknown coach', async ({ t }) => {
    await withAdmins(t);
    const admin = await t.login('admin@example.org');
    expect((await request(t.app).post('/v2/coaches/nobody/end-sessions').set(as(admin))).status).toBe(404);
  });
});

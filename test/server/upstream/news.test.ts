import { expect } from 'vitest';
import request from 'supertest';
import { fileRowsTest, type TestCoach } from '../../helpers/upstream-rows.ts';

const test = fileRowsTest({ now: '2026-06-15T10:00:00.000Z' })
  .extend('anna', { scope: 'file', auto: true }, ({ u }) => u.coach('coach'))
  .extend('ben', { scope: 'file', auto: true }, ({ u }) => u.coach('coach'))
  .extend('admin', { scope: 'file', auto: true }, ({ u }) => u.coach('admin'))
  .extend('news', { scope: 'file', auto: true }, async ({ u }) => {
    const createdAt = '2026-06-01T00:00:00.000Z';
    await u.db
      .insertInto('news')
      .values([
        { id: 'n-old', title: 'Neue Version', body: 'Text', publishedAt: '2026-06-01T08:00:00.000Z', createdAt },
        { id: 'n-new', title: 'Schulung am Freitag', body: 'Text', publishedAt: '2026-06-14T08:00:00.000Z', createdAt },
        { id: 'n-future', title: 'Noch nicht veröffentlicht', body: 'Text', publishedAt: '2026-07-01T08:00:00.000Z', createdAt },
      ])
      .execute();
  })
  .extend(
    'list',
    { scope: 'file' },
    ({ u }) =>
      (who: TestCoach) =>
        request(u.app).get('/v2/news').set('Authorization', who.auth),
  )
  .extend(
    'mark',
    { scope: 'file' },
    ({ u }) =>
      (who: TestCoach, id: string, state: 'read' | 'unread', coachId = who.id) =>
        request(u.app).post(`/v2/news/${id}/${state}/${coachId}`).set('Authorization', who.auth),
  )
  .extend(
    'readState',
    { scope: 'file' },
    ({ list }) =>
      async (who: TestCoach) =>
        Object.fromEntries((await list(who)).body.map((n: { id: string; read: boolean }) => [n.id, n.read])),
  );

test('lists published news newest first, all unread for a coach who has read nothing', async ({ anna, list }) => {
  const res = await list(anna);
  expect(res.status).toBe(200);
  expect(res.body.map((n: { id: string }) => n.id)).toEqual(['n-new', 'n-old']);
  expect(res.body[0]).toEqual({ id: 'n-new', title: 'Schulung am Freitag', body: 'Text', publishedAt: '2026-06-14T08:00:00.000Z', read: false });
});

test('read state is per coach: marking read for one coach leaves the other coach unread', async ({ anna, ben, mark, readState }) => {
  expect((await mark(anna, 'n-new', 'read')).status).toBe(204);
  expect(await readState(anna)).toEqual({ 'n-new': true, 'n-old': false });
  expect(await readState(ben)).toEqual({ 'n-new': false, 'n-old': false });
});

test('marking read twice is harmless and mark unread reverts it', async ({ ben, mark, readState }) => {
  expect((await mark(ben, 'n-old', 'read')).status).toBe(204);
  expect((await mark(ben, 'n-old', 'read')).status).toBe(204);
  expect((await readState(ben))['n-old']).toBe(true);
  expect((await mark(ben, 'n-old', 'unread')).status).toBe(204);
  expect((await readState(ben))['n-old']).toBe(false);
});

test('a coach cannot change another coach read state; an administrator can', async ({ anna, ben, admin, mark, readState }) => {
  const res = await mark(ben, 'n-old', 'read', anna.id);
  expect(res.status).toBe(403);
  expect((await readState(anna))['n-old']).toBe(false);
  expect((await mark(admin, 'n-old', 'read', anna.id)).status).toBe(204);
  expect((await readState(anna))['n-old']).toBe(true);
});

test('answers 404 for unknown or not yet published news and for an unknown coach', async ({ anna, admin, mark }) => {
  expect((await mark(anna, 'n-missing', 'read')).status).toBe(404);
  expect((await mark(anna, 'n-future', 'read')).status).toBe(404);
  expect((await mark(admin, 'n-old', 'read', 'no-such-coach')).status).toBe(404);
});

test('answers 401 without a token', async ({ u, anna }) => {
  expect((await request(u.app).get('/v2/news')).status).toBe(401);
  expect((await request(u.app).post(`/v2/news/n-old/read/${anna.id}`)).status).toBe(401);
});

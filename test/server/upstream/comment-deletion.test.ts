import { describe, expect } from 'vitest';
import request from 'supertest';
import * as v from 'valibot';
import { CommentListSchema, CommentSchema } from '../../../contract/schemas/comments.ts';
import { signedIn, upstreamTest } from '../../helpers/upstream-test.ts';

/* A deleted comment stays in the record: gone for coaches, visible to administrators with who deleted it and when. */

const test = upstreamTest()
  .extend('admin', { auto: true }, ({ t }) => signedIn(t, 'admin'))
  .extend('coach', { auto: true }, ({ t }) => signedIn(t, 'coach'))
  /** The comments a signed-in coach (token) lists with a filter. */
  .extend('comments', ({ t }) => async (token: string, where: Record<string, unknown>) => {
    const res = await request(t.app)
      .get('/v2/comments')
      .set(as(token))
      .query({ filter: JSON.stringify({ where }) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Number(res.headers['x-total-count'])).toBe(res.body.length);
    return v.parse(CommentListSchema, res.body);
  });

function as(token: string) {
  return { Authorization: `Bearer ${token}` };
}

describe('after a coach deleted a comment', () => {
  test.beforeEach(async ({ t, coach }) => {
    t.clock.advance(600);
    await request(t.app).delete('/v2/comments/c1').set(as(coach)).expect(204);
  });

  test('coaches no longer see it, by id or in lists, even when they ask for deleted ones', async ({ t, coach, comments }) => {
    expect((await request(t.app).get('/v2/comments/c1').set(as(coach))).status).toBe(404);
    expect(await comments(coach, { patientId: 'p1' })).toEqual([]);
    expect(await comments(coach, { patientId: 'p1', deletedAt: { neq: null } })).toEqual([]);
  });

  test('administrators read it by id with who deleted it and when', async ({ t, admin }) => {
    const res = await request(t.app).get('/v2/comments/c1').set(as(admin));
    expect(res.status).toBe(200);
    const comment = v.parse(CommentSchema, res.body);
    expect(comment).toMatchObject({ text: 'Erstgespräch geführt.', deletedBy: 'coach', deletedByName: 'coach Test', deletedAt: '2026-11-22T09:10:00.000Z' });
  });

  test('lists of administrators leave it out unless the filter names deletedAt', async ({ admin, comments }) => {
    expect(await comments(admin, { patientId: 'p1' })).toEqual([]);
    const deleted = await comments(admin, { patientId: 'p1', deletedAt: { neq: null } });
    expect(deleted.map((c) => [c.id, c.deletedByName])).toEqual([['c1', 'coach Test']]);
    expect((await comments(admin, { or: [{ deletedAt: null }, { deletedAt: { neq: null } }] })).map((c) => c.id).sort()).toEqual(['c1', 'c2']);
  });

  test('nobody changes or deletes it again', async ({ t, admin, coach }) => {
    for (const token of [coach, admin]) {
      expect((await request(t.app).patch('/v2/comments/c1').set(as(token)).send({ text: 'neu' })).status).toBe(404);
      expect((await request(t.app).put('/v2/comments/c1').set(as(token)).send({ text: 'neu' })).status).toBe(404);
      expect((await request(t.app).delete('/v2/comments/c1').set(as(token))).status).toBe(404);
    }
  });

  test('the row and its text stay in the database', async ({ t }) => {
    const row = await t.storage.db.selectFrom('comments').selectAll().where('id', '=', 'c1').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ text: 'Erstgespräch geführt.', deletedBy: 'coach' });
  });
});

test('a deletion that names an old version is refused with the current comment', async ({ t, coach, comments }) => {
  const first = await request(t.app).get('/v2/comments/c1').set(as(coach));
  await request(t.app).patch('/v2/comments/c1').set(as(coach)).set('If-Match', first.headers.etag).send({ text: 'Ergänzt.' }).expect(200);
  const stale = await request(t.app).delete('/v2/comments/c1').set(as(coach)).set('If-Match', first.headers.etag);
  expect(stale.status).toBe(412);
  expect(stale.body.error.current.text).toBe('Ergänzt.');
  expect((await comments(coach, { patientId: 'p1' })).map((c) => c.text)).toEqual(['Ergänzt.']);
});

test('the exports and the dashboard feed (lists without deletedAt) never contain deleted comments', async ({ t, admin, comments }) => {
  await request(t.app).delete('/v2/comments/c2').set(as(admin)).expect(204);
  expect((await comments(admin, {})).map((c) => c.id)).toEqual(['c1']);
});

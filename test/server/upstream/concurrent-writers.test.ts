import { describe, expect } from 'vitest';
import request from 'supertest';
import { fileUpstreamTest } from '../../helpers/upstream-test.ts';

/*
 * Many writers on one record, on SQLite and (npm run test:postgres) PostgreSQL: every write either lands or, when it
 * named a version that is no longer stored, gets 412 with the record as it is now. None gives up with an error.
 */
const test = fileUpstreamTest().extend('admin', { scope: 'file' }, ({ t }) => t.login('admin@example.org'));

const as = (token: string) => ({ Authorization: `Bearer ${token}` });
const WRITERS = 20;

describe('20 concurrent writers to one patient', () => {
  test('with the same If-Match one write lands and every other gets 412 with the current record', async ({ t, admin }) => {
    const before = await request(t.app).get('/v2/patients/p1').set(as(admin));
    const answers = await Promise.all(
      Array.from({ length: WRITERS }, (_, i) =>
        request(t.app)
          .patch('/v2/patients/p1')
          .set(as(admin))
          .set('If-Match', before.headers.etag)
          .send({ phone: `030 ${i}` }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, ...Array(WRITERS - 1).fill(412)]);
    const landed = answers.find((a) => a.status === 200)!;
    for (const stale of answers.filter((a) => a.status === 412)) {
      expect(stale.body.error.code).toBe('VERSION_MISMATCH');
      expect(stale.body.error.current.phone).toBe(landed.body.phone);
      expect(stale.headers.etag).toBe(landed.headers.etag);
    }
  });

  test('each with the version it last read, retrying after a 412, every write lands in the end', async ({ t, admin }) => {
    const writer = async (i: number) => {
      let etag = (await request(t.app).get('/v2/patients/p1').set(as(admin))).headers.etag;
      const statuses: number[] = [];
      for (;;) {
        const answer = await request(t.app)
          .patch('/v2/patients/p1')
          .set(as(admin))
          .set('If-Match', etag)
          .send({ clinic: `Klinik ${i}` });
        statuses.push(answer.status);
        if (answer.status !== 412) return statuses;
        etag = answer.headers.etag;
      }
    };
    const all = await Promise.all(Array.from({ length: WRITERS }, (_, i) => writer(i)));
    for (const statuses of all) {
      expect(statuses.at(-1)).toBe(200);
      expect(statuses.slice(0, -1).every((s) => s === 412)).toBe(true);
    }
  });

  test('without If-Match every one of them lands', async ({ t, admin }) => {
    const answers = await Promise.all(
      Array.from({ length: WRITERS }, (_, i) =>
        request(t.app)
          .patch('/v2/patients/p1')
          .set(as(admin))
          .send({ email: `w${i}@example.org` }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(WRITERS).fill(200));
  });
});

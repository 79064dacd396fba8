import { describe, expect } from 'vitest';
import request from 'supertest';
import { API_FAMILIES } from '../../../contract/catalog.ts';
import { fileUpstreamTest } from '../../helpers/upstream-test.ts';

/* Odd input gets a 400 (or 422 naming the field), never a 500 and never a silent change; on SQLite and PostgreSQL. */
// One upstream for the file: its tests send hundreds of refused requests, and what they store (a comment, a
// timestamp, an access code) no other test reads.
const test = fileUpstreamTest({ rateLimits: { perIp: 100_000, perAccount: 100_000 } })
  .extend('as', { scope: 'file' }, async ({ t }) => ({ Authorization: `Bearer ${await t.login('admin@example.org')}` }))
  /** A list read by the administrator with a filter. */
  .extend(
    'list',
    { scope: 'file' },
    ({ t, as }) =>
      (path: string, filter: unknown) =>
        request(t.app)
          .get(`/v2${path}`)
          .set('Authorization', as.Authorization)
          .query({ filter: JSON.stringify(filter) }),
  );
const listCalls = API_FAMILIES.flatMap((f) => f.calls).filter((c) => c.method === 'GET' && c.query === 'filter: ListFilter');
const concrete = (path: string) =>
  path
    .replace('{collection}', 'event')
    .replace('{patientId}', 'p1')
    .replace('{id}', path.startsWith('/coaches') ? 'coach' : 'p1');

describe('filters', () => {
  const inherited = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'];
  test.for(listCalls.map((c) => [c.path] as const))('%s answers 400 for inherited member names in order and where', async ([path], { list }) => {
    for (const name of inherited) {
      for (const filter of [
        { order: name },
        { order: [`${name} DESC`] },
        JSON.parse(`{"where":{"${name}":"x"}}`),
        JSON.parse(`{"where":{"or":[{"${name}":{"like":"a"}}]}}`),
      ]) {
        const res = await list(concrete(path), filter);
        expect(res.status, `${JSON.stringify(filter)}: ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body.error.code).toBe('INVALID_FILTER');
      }
    }
  });

  test.for([1.5, 1e20, -1e20, 2 ** 31, -(2 ** 31) - 1, Number.MAX_SAFE_INTEGER])(
    'a number outside a 32-bit whole number (%s) is a 400, in every operator',
    async (value, { list }) => {
      for (const where of [
        { amountCents: value },
        { amountCents: { gt: value } },
        { amountCents: { inq: [value] } },
        { amountCents: { between: [0, value] } },
      ]) {
        const res = await list('/cost-rates', { where });
        expect(res.status, JSON.stringify(where)).toBe(400);
      }
      expect((await list('/cost-rates', { where: { amountCents: { lte: 2 ** 31 - 1 } } })).status).toBe(200);
    },
  );

  test('a backslash in a like pattern is an ordinary character; % and _ stay wildcards', async ({ t, as, list }) => {
    const created = await request(t.app)
      .post('/v2/patients')
      .set('Authorization', as.Authorization)
      .send({ firstName: 'Bea', lastName: 'Back\\slash', birthDate: '1970-01-01', aftercareStart: '2026-01-01', aftercareEnd: '2026-12-31' });
    expect(created.status).toBe(201);
    for (const pattern of ['\\', 'back\\%', '%\\slash', 'back\\slas_']) {
      const res = await list('/patients', { where: { lastName: { like: pattern } } });
      expect(res.status, pattern).toBe(200);
      expect(
        res.body.map((p: { id: string }) => p.id),
        pattern,
      ).toEqual(pattern === '\\' ? [] : [created.body.id]);
    }
    expect((await list('/patients', { where: { lastName: { like: '%\\%' } } })).body.map((p: { id: string }) => p.id)).toEqual([created.body.id]);
  });

  test('like on a number or boolean field is a 400', async ({ list }) => {
    expect((await list('/cost-rates', { where: { amountCents: { like: '3%' } } })).status).toBe(400);
    expect((await list('/coaches', { where: { isAdmin: { like: '1' } } })).status).toBe(400);
  });

  test('conditions nested deeper than 8 levels are a 400', async ({ list }) => {
    let where: Record<string, unknown> = { lastName: 'x' };
    for (let i = 0; i < 9; i++) where = { and: [where] };
    expect((await list('/patients', { where })).status).toBe(400);
  });

  test('a timestamp bound in another notation compares as the same instant', async ({ list }) => {
    const late = await list('/patients', { where: { createdAt: { gte: '2026-11-22 10:00:00+01' } } });
    expect(late.status).toBe(200);
    expect(late.body.length).toBeGreaterThan(0);
  });
});

describe('NUL, lone surrogates and bytes that are not UTF-8', () => {
  test.for([
    ['a NUL in a comment', { patientId: 'p1', text: 'Anruf\u0000 danach gelöscht' }],
    ['a lone surrogate in a comment', { patientId: 'p1', text: 'Anruf \ud800' }],
    ['a NUL in a key', { patientId: 'p1', text: 'ok', 'x\u0000': 1 }],
  ])('%s is a 400 and nothing is stored', async ([_name, body], { t, as, list }) => {
    const before = await list('/comments', {});
    const res = await request(t.app).post('/v2/comments').set('Authorization', as.Authorization).send(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_TEXT');
    expect((await list('/comments', {})).headers['x-total-count']).toBe(before.headers['x-total-count']);
  });

  test('a NUL in a filter value, a query value or a path id is a 400', async ({ t, as, list }) => {
    expect((await list('/patients', { where: { lastName: 'a\u0000' } })).status).toBe(400);
    expect((await request(t.app).get('/v2/patients/p1%00').set('Authorization', as.Authorization)).status).toBe(400);
    expect((await request(t.app).get('/v2/statistics/phone-coachings').set('Authorization', as.Authorization).query({ coachId: '"a\u0000"' })).status).toBe(
      400,
    );
  });

  test('a query value or path whose percent-encoded bytes are not UTF-8 is a 400', async ({ t, as }) => {
    expect((await request(t.app).get('/v2/patients?filter=%22%ED%A0%80%22').set('Authorization', as.Authorization)).status).toBe(400);
    expect((await request(t.app).get('/v2/patients/%FF').set('Authorization', as.Authorization)).status).toBe(400);
  });

  test('a body whose bytes are not UTF-8 is a 400, not text with replacement characters', async ({ t, as }) => {
    const body = Buffer.concat([Buffer.from('{"patientId":"p1","text":"Anruf '), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const res = await request(t.app)
      .post('/v2/comments')
      .set('Authorization', as.Authorization)
      .set('Content-Type', 'application/json')
      .serialize((raw: Buffer) => raw as never)
      .send(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_TEXT');
  });

  test('text with characters outside the BMP and combining marks is stored exactly', async ({ t, as }) => {
    const text = 'Stimmung 😀, Zoë, Ångström, 𝔘𝔫𝔦𝔠𝔬𝔡𝔢';
    const res = await request(t.app).post('/v2/comments').set('Authorization', as.Authorization).send({ patientId: 'p1', text });
    expect(res.status).toBe(201);
    expect((await request(t.app).get(`/v2/comments/${res.body.id}`).set('Authorization', as.Authorization)).body.text).toBe(text);
  });
});

describe('timestamps', () => {
  test('every notation the schema accepts is stored, as UTC with milliseconds', async ({ t, as }) => {
    const notations: [string, string][] = [
      ['2026-11-20T10:00:00+01', '2026-11-20T09:00:00.000Z'],
      ['2026-11-20 10:00:00+0100', '2026-11-20T09:00:00.000Z'],
      ['2026-11-20T10:00:00.123456789-02:30', '2026-11-20T12:30:00.123Z'],
      ['2026-11-20T23:30:00Z', '2026-11-20T23:30:00.000Z'],
    ];
    for (const [i, [start, stored]] of notations.entries()) {
      const res = await request(t.app)
        .put('/v2/patients/p1/sync-db/event')
        .set('Authorization', as.Authorization)
        .send({ id: `e-notation-${i}`, data: { type: 'phone-coaching', title: 'Anruf', start, durationMinutes: 20, done: true } });
      expect(res.status, `${start}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.data.start).toBe(stored);
      // The day it counts for is the Berlin day of that instant.
      expect(res.body.date).toBe(start === '2026-11-20T23:30:00Z' ? '2026-11-21' : '2026-11-20');
    }
  });

  test('a day the calendar does not have is a 422 naming the field', async ({ t, as }) => {
    const res = await request(t.app)
      .put('/v2/patients/p1/sync-db/event')
      .set('Authorization', as.Authorization)
      .send({ id: 'e-feb', data: { type: 'other', title: 'x', start: '2026-02-30T10:00:00Z', durationMinutes: 5 } });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].path).toBe('data.start');
  });
});

describe('bodies', () => {
  test('an array where an object belongs is a 400 on every PATCH and PUT, and a PATCH of nothing changes nothing', async ({ t, as }) => {
    for (const path of ['/diagnosis/dx-m54', '/patients/p1', '/comments/c1', '/coaches/coach', '/devices/dev-1', '/cost-rates/rate-1']) {
      const res = await request(t.app).patch(`/v2${path}`).set('Authorization', as.Authorization).send([]);
      expect(res.status, path).toBe(400);
    }
    const empty = await request(t.app).patch('/v2/diagnosis/dx-m54').set('Authorization', as.Authorization).send({});
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ id: 'dx-m54', code: 'M54.5', label: 'Kreuzschmerz' });
  });
});

describe('access codes', () => {
  test('expire at most 90 days after creation, whatever a PATCH or PUT says', async ({ t, as }) => {
    const code = (await request(t.app).post('/v2/patientTokens').set('Authorization', as.Authorization).send({ patientId: 'p1' })).body;
    expect(code.expiresAt).toBe('2027-02-20T09:00:00.000Z');
    for (const expiresAt of ['9999-12-31T23:59:59.999Z', '2027-02-20T09:00:00.001Z', '2027-02-20 10:00:01+01']) {
      const patch = await request(t.app).patch(`/v2/patientTokens/${code.id}`).set('Authorization', as.Authorization).send({ expiresAt });
      expect(patch.status, expiresAt).toBe(422);
      expect(patch.body.error.details[0].path).toBe('expiresAt');
      const put = await request(t.app)
        .put(`/v2/patientTokens/${code.id}`)
        .set('Authorization', as.Authorization)
        .send({ coachId: 'admin', patientId: 'p1', expiresAt });
      expect(put.status).toBe(422);
    }
    const stored = await request(t.app).get(`/v2/patientTokens/${code.id}`).set('Authorization', as.Authorization);
    expect(stored.body.expiresAt).toBe('2027-02-20T09:00:00.000Z');
    // Shortening is fine, up to the very limit.
    expect(
      (await request(t.app).patch(`/v2/patientTokens/${code.id}`).set('Authorization', as.Authorization).send({ expiresAt: '2026-12-01T00:00:00Z' })).body
        .expiresAt,
    ).toBe('2026-12-01T00:00:00.000Z');
    expect(
      (await request(t.app).patch(`/v2/patientTokens/${code.id}`).set('Authorization', as.Authorization).send({ expiresAt: '2027-02-20T09:00:00.000Z' }))
        .status,
    ).toBe(200);
  });
});

import { describe, expect } from 'vitest';
import request from 'supertest';
import { request as httpRequest } from 'node:http';
import type { Gateway } from '../../../server/api-lane.ts';
import { createApp } from '../../../server/app.ts';
import { listen, startFakeUpstream, testConfig, unusedPort } from '../../helpers/gateway-fixtures.ts';
import { publicDirTest } from '../../helpers/gateway-test.ts';
import type { FakeUpstream } from '../../helpers/gateway-fixtures.ts';
import { API_PATIENT, mappingFile, startRenamedUpstream } from '../../helpers/renamed-upstream.ts';
import { xsrfFrom } from '../../helpers/xsrf-pair.ts';

// Each test its own renamed upstream, so it sees only its own requests, and the gateways in front of it.
const test = publicDirTest
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixtures a fixture needs from its first parameter
  .extend('mapping', { scope: 'file' }, ({}, { onCleanup }) => {
    const mapping = mappingFile();
    onCleanup(() => mapping.cleanup());
    return mapping;
  })
  // biome-ignore lint/correctness/noEmptyPattern: see above
  .extend('upstream', async ({}, { onCleanup }): Promise<FakeUpstream> => {
    const upstream = await startRenamedUpstream();
    onCleanup(() => upstream.close());
    return upstream;
  })
  /** The gateway with the mapping, and `plain`, the same without it. */
  .extend('mapped', ({ publicDir, upstream, mapping }) =>
    createApp(testConfig({ UPSTREAM_URL: upstream.url, UPSTREAM_MAPPING: mapping.file }), { publicDir: publicDir.dir }),
  )
  .extend('plain', ({ publicDir, upstream }) => createApp(testConfig({ UPSTREAM_URL: upstream.url }), { publicDir: publicDir.dir }))
  .extend('xsrf', ({ mapped }) => xsrfFrom(mapped))
  .extend(
    'write',
    ({ xsrf }) =>
      (app: Gateway, method: 'post' | 'put' | 'patch', path: string, body: unknown) =>
        request(app)
          [method](path)
          .set('Cookie', xsrf.cookie)
          .set('X-XSRF-TOKEN', xsrf.token)
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(body)),
  )
  /** The patient list through the mapping, with this filter. */
  .extend(
    'list',
    ({ mapped }) =>
      (filter: unknown) =>
        request(mapped).get(`/v2/patients?filter=${encodeURIComponent(JSON.stringify(filter))}&limit=5`),
  )
  /** What the upstream received first: its body, the filter and the where of its query. */
  .extend(
    'sentBody',
    ({ upstream }) =>
      () =>
        JSON.parse(upstream.requests[0].body) as Record<string, unknown>,
  )
  .extend(
    'sentFilter',
    ({ upstream }) =>
      () =>
        JSON.parse(new URL(upstream.requests[0].url, 'http://x').searchParams.get('filter') ?? 'null') as Record<string, unknown>,
  )
  .extend(
    'sentWhere',
    ({ upstream }) =>
      () =>
        JSON.parse(new URL(upstream.requests[0].url, 'http://x').searchParams.get('where') ?? 'null') as Record<string, unknown>,
  );

describe('answers with a mapping', () => {
  test("renames the API's fields to the contract's, converts picklist values and keeps unmapped fields", async ({ mapped }) => {
    const res = await request(mapped).get('/v2/patients/41');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 41, firstName: 'Erika', lastName: 'Muster', birthDate: '1970-03-01', primaryCoachId: 7, gender: 'female' });
    expect(res.body).not.toHaveProperty('birthday');
    expect(res.body).not.toHaveProperty('sex');
  });

  test('translates nested shapes: a patient’s appointments, and the patient and token of a PatientAccess', async ({ mapped }) => {
    const one = await request(mapped).get('/v2/patients/41');
    expect(one.body.appointments).toEqual([{ id: 'a1', startsAt: '2026-02-01T09:00:00.000Z', durationMinutes: 30, type: 'phone', note: '' }]);
    const access = await request(mapped).get('/v2/coaches/create-trial-access');
    expect(access.body.patient).toMatchObject({ birthDate: '1970-03-01', gender: 'female', lastName: 'Muster' });
    expect(access.body.patient.appointments[0]).toHaveProperty('startsAt');
    expect(access.body.token).toMatchObject({ code: 'K7QM-X3PA-9R' });
  });

  test('translates every item of a list answer and keeps X-Total-Count, with a Content-Length for the new body', async ({ mapped }) => {
    const res = await request(mapped).get('/v2/patients');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({ birthDate: '1970-03-01', primaryCoachId: 7, gender: 'female' });
    expect(res.headers['x-total-count']).toBe('1');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
  });

  test('multiplies a scaled field: euros in the API are whole cents in the contract (19.99 × 100 is 1999)', async ({ mapped }) => {
    const res = await request(mapped).get('/v2/cost-rates');
    expect(res.body).toEqual([{ id: 'c1', name: 'IRENA Gruppe', amountCents: 1999, unit: 'session' }]);
  });

  test('moves the fields of a flat record under data, renamed by the data shape’s mapping', async ({ mapped }) => {
    const res = await request(mapped).get('/v2/patients/41/sync-db/day-evaluation');
    expect(res.body).toEqual([
      {
        id: 'de-1',
        patientId: 41,
        date: '2026-02-01',
        updatedAt: '2026-02-01T20:00:00.000Z',
        data: { date: '2026-02-01', mood: 4, sleep: 3, stress: 2, notes: '' },
      },
    ]);
  });

  test('keeps the ETag: it is the version the client sends back in If-Match', async ({ mapped }) => {
    const res = await request(mapped).get('/v2/patients/41');
    expect(res.headers.etag).toBe('"v7"');
  });

  test('asks the upstream for plain JSON on a translated call and still compresses the answer for the browser', async ({ mapped, upstream }) => {
    const res = await request(mapped).get('/v2/coaches/7/patients').set('Accept-Encoding', 'gzip');
    expect(upstream.requests[0].headers['accept-encoding']).toBe('identity');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.body).toHaveLength(40);
    expect(res.body[39]).toMatchObject({ id: 39, birthDate: '1970-03-01', gender: 'female' });
  });
});

describe('request bodies with a mapping', () => {
  test('renames a PATCH body to the API’s names and converts picklist values', async ({ mapped, write, sentBody, upstream }) => {
    const res = await write(mapped, 'patch', '/v2/patients/41', { birthDate: '1971-04-02', gender: 'male', firstName: 'Max' });
    expect(sentBody()).toEqual({ birthday: '1971-04-02', sex: 'm', firstName: 'Max' });
    expect(Number(upstream.requests[0].headers['content-length'])).toBe(Buffer.byteLength(upstream.requests[0].body));
    expect(res.body).toMatchObject({ birthDate: '1971-04-02', gender: 'male', firstName: 'Max' });
  });

  test('a body named XCreate takes X’s names, nested arrays included', async ({ mapped, write, sentBody, upstream }) => {
    await write(mapped, 'post', '/v2/patients', { firstName: 'A', lastName: 'B', primaryCoachId: '7' });
    expect(sentBody()).toEqual({ firstName: 'A', surname: 'B', coachId: '7' });
    await write(mapped, 'put', '/v2/patients/41/appointments', [{ id: 'a2', startsAt: '2026-03-01T10:00:00.000Z', durationMinutes: 45, type: 'video' }]);
    expect(JSON.parse(upstream.requests[1].body)).toEqual([{ id: 'a2', start: '2026-03-01T10:00:00.000Z', minutes: 45, type: 'video' }]);
  });

  test('a new coach’s body takes Coach’s names, its password (not a field of Coach) as it is', async ({ write, sentBody, upstream, publicDir }) => {
    const coachMapping = mappingFile({ entities: { Coach: { fields: { firstName: 'vorname', email: 'mail' } } } });
    try {
      const app = createApp(testConfig({ UPSTREAM_URL: upstream.url, UPSTREAM_MAPPING: coachMapping.file }), { publicDir: publicDir.dir });
      await write(app, 'post', '/v2/coaches', { firstName: 'Anna', lastName: 'Berg', email: 'anna@example.org', password: 'Lang-genug-1' });
      expect(sentBody()).toEqual({ vorname: 'Anna', lastName: 'Berg', mail: 'anna@example.org', password: 'Lang-genug-1' });
    } finally {
      coachMapping.cleanup();
    }
  });

  test('divides a scaled field: cents in the contract are euros in the API', async ({ mapped, write, sentBody }) => {
    const res = await write(mapped, 'post', '/v2/cost-rates', { name: 'Woche', amountCents: 1234, unit: 'week' });
    expect(sentBody()).toEqual({ name: 'Woche', amount: 12.34, unit: 'week' });
    expect(res.body).toMatchObject({ amountCents: 1234 });
  });

  test('lifts data’s fields beside the envelope for a flat record, and nests the answer again', async ({ mapped, write, sentBody }) => {
    const res = await write(mapped, 'put', '/v2/patients/41/sync-db/day-evaluation', {
      id: 'de-2',
      data: { date: '2026-02-02', mood: 5, sleep: 4, stress: 1 },
    });
    expect(sentBody()).toEqual({ id: 'de-2', date: '2026-02-02', moodScore: 5, sleep: 4, stress: 1 });
    expect(res.body).toEqual({
      id: 'de-2',
      patientId: 41,
      date: '2026-02-02',
      updatedAt: '2026-02-02T08:00:00.000Z',
      data: { date: '2026-02-02', mood: 5, sleep: 4, stress: 1 },
    });
  });

  test('sends a body that is not JSON as it came', async ({ mapped, xsrf, upstream }) => {
    await request(mapped)
      .patch('/v2/patients/41')
      .set('Cookie', xsrf.cookie)
      .set('X-XSRF-TOKEN', xsrf.token)
      .set('Content-Type', 'application/json')
      .send('{not json');
    expect(upstream.requests[0].body).toBe('{not json');
  });

  test('refuses a chunked body over the /v2 limit with 413 before anything reaches the upstream', async ({ mapped, xsrf, upstream }) => {
    const server = await listen(mapped);
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const headers = { Cookie: xsrf.cookie, 'X-XSRF-TOKEN': xsrf.token, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' };
      const req = httpRequest(`${server.url}/v2/patients/41`, { method: 'PATCH', headers }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', reject);
      req.write(`{"firstName":"${'x'.repeat(600 * 1024)}`);
      req.end(`${'x'.repeat(600 * 1024)}"}`);
    });
    await server.close();
    expect(status).toBe(413);
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('filters with a mapping', () => {
  test('renames where keys inside and/or and converts the values of inq and between, but not like patterns', async ({ list, sentFilter, upstream }) => {
    await list({
      where: {
        and: [{ or: [{ gender: { inq: ['female', 'diverse'] } }, { birthDate: { between: ['1970-01-01', '1980-01-01'] } }] }, { lastName: { like: 'Mu%' } }],
        gender: { nlike: 'male' },
      },
    });
    expect(sentFilter()).toEqual({
      where: {
        and: [{ or: [{ sex: { inq: ['f', 'd'] } }, { birthday: { between: ['1970-01-01', '1980-01-01'] } }] }, { surname: { like: 'Mu%' } }],
        sex: { nlike: 'male' },
      },
    });
    expect(upstream.requests[0].url).toMatch(/&limit=5$/);
  });

  test('renames order given as a string and as an array, and fields given as an object and as an array', async ({ list, sentFilter, upstream }) => {
    await list({ order: 'lastName ASC', fields: { birthDate: true, id: true } });
    expect(sentFilter()).toEqual({ order: 'surname ASC', fields: { birthday: true, id: true } });
    upstream.requests.length = 0;
    await list({ order: ['birthDate DESC', 'id ASC'], fields: ['primaryCoachId', 'firstName'] });
    expect(sentFilter()).toEqual({ order: ['birthday DESC', 'id ASC'], fields: ['coachId', 'firstName'] });
  });

  test('translates a where query value of its own and the data.x keys of a flat collection', async ({ mapped, sentFilter, sentWhere, upstream }) => {
    await request(mapped).get(`/v2/patients?where=${encodeURIComponent(JSON.stringify({ primaryCoachId: '7', gender: 'unknown' }))}`);
    expect(sentWhere()).toEqual({ coachId: '7', sex: 'u' });
    upstream.requests.length = 0;
    const filter = { where: { 'data.mood': { gte: 3 }, updatedAt: { gt: '2026-01-01' } }, order: 'data.mood DESC' };
    await request(mapped).get(`/v2/patients/41/sync-db/day-evaluation?filter=${encodeURIComponent(JSON.stringify(filter))}`);
    expect(sentFilter()).toEqual({ where: { moodScore: { gte: 3 }, modified: { gt: '2026-01-01' } }, order: 'moodScore DESC' });
  });

  test('scales values in a where condition', async ({ mapped, sentFilter }) => {
    await request(mapped).get(`/v2/cost-rates?filter=${encodeURIComponent(JSON.stringify({ where: { amountCents: { between: [1000, 5050] } } }))}`);
    expect(sentFilter()).toEqual({ where: { amount: { between: [10, 50.5] } } });
  });
});

describe('query shapes of their own with a mapping', () => {
  test("renames a statistics query's parameters by its shape's mapping and its order by the rows' mapping; other parameters stay byte for byte", async ({
    upstream,
    publicDir,
  }) => {
    const statistics = mappingFile({
      entities: { DetailStatisticsQuery: { fields: { coachId: 'trainerId' } }, PatientDetailStatisticsRow: { fields: { lastName: 'surname' } } },
    });
    try {
      const app = createApp(testConfig({ UPSTREAM_URL: upstream.url, UPSTREAM_MAPPING: statistics.file }), { publicDir: publicDir.dir });
      const from = `from=${encodeURIComponent('"2026-01-01"')}`;
      await request(app).get(
        `/v2/statistics/patient-detail-statistics?${from}&coachId=${encodeURIComponent('"7"')}&order=${encodeURIComponent('"lastName DESC"')}`,
      );
      const sent = new URL(upstream.requests[0].url, 'http://x');
      expect(upstream.requests[0].url).toContain(`?${from}&`);
      expect(sent.searchParams.get('trainerId')).toBe('"7"');
      expect(sent.searchParams.has('coachId')).toBe(false);
      expect(sent.searchParams.get('order')).toBe('"surname DESC"');
    } finally {
      statistics.cleanup();
    }
  });
});

describe('what passes through with a mapping', () => {
  test('an error answer keeps its body and status (the API’s names in it untouched)', async ({ mapped }) => {
    const res = await request(mapped).get('/v2/patients/404');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ statusCode: 404, birthday: 'kept as it came' });
  });

  test('an answer the upstream encodes although asked for plain JSON passes as it came', async ({ mapped }) => {
    const res = await request(mapped).get('/v2/patientTokens/5').set('Accept-Encoding', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.body).toMatchObject({ token: 'K7QM-X3PA-9R' });
  });

  test('a file answer passes as it came', async ({ mapped }) => {
    const res = await request(mapped).get('/v2/app-settings/asset/a1').buffer(true);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.body.toString()).toBe('%PDF-1.4');
  });

  test('a call outside the catalogue and a call the mapping does not touch stream unchanged', async ({ mapped }) => {
    const custom = await request(mapped).get('/v2/custom/birthdays');
    expect(custom.body).toEqual([{ birthday: '1970-03-01', coachId: 7 }]);
    const news = await request(mapped).get('/v2/news');
    expect(news.body).toEqual([{ id: 'n1', title: 'Neu', birthday: 'not a patient' }]);
    expect(news.headers['transfer-encoding']).toBe('chunked');
    expect(news.headers['content-length']).toBeUndefined();
  });
});

describe('faults on a translated call', () => {
  test('an upstream that is not reachable gives the usual 502', async ({ mapping, publicDir }) => {
    const app = createApp(testConfig({ UPSTREAM_URL: `http://127.0.0.1:${await unusedPort()}`, UPSTREAM_MAPPING: mapping.file }), { publicDir: publicDir.dir });
    const res = await request(app).get('/v2/patients/41');
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('UPSTREAM_UNAVAILABLE');
  });

  test('an answer cut off mid-body is no answer: the connection is cut, nothing half-translated arrives', async ({ mapping, publicDir }) => {
    const cutting = await startFakeUpstream((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '500' });
      res.write('{"id":41,"birthday":"19');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    try {
      const app = createApp(testConfig({ UPSTREAM_URL: cutting.url, UPSTREAM_MAPPING: mapping.file }), { publicDir: publicDir.dir });
      await expect(request(app).get('/v2/patients/41')).rejects.toThrow();
    } finally {
      await cutting.close();
    }
  });
});

describe('a client that leaves mid-body on a translated call', () => {
  test('sends nothing to the upstream and reports nothing, and the gateway goes on serving', async ({ xsrf, mapping, upstream, publicDir }) => {
    const reports: unknown[] = [];
    const app = createApp(testConfig({ UPSTREAM_URL: upstream.url, UPSTREAM_MAPPING: mapping.file }), {
      publicDir: publicDir.dir,
      report: (error) => reports.push(error),
    });
    const server = await listen(app);
    try {
      await new Promise<void>((resolve) => {
        const headers = { Cookie: xsrf.cookie, 'X-XSRF-TOKEN': xsrf.token, 'Content-Type': 'application/json', 'Content-Length': '1000' };
        const req = httpRequest(`${server.url}/v2/patients/41`, { method: 'PATCH', headers });
        req.on('error', () => resolve());
        req.write('{"birthDate":"19', () => setTimeout(() => req.destroy(), 50));
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(upstream.requests).toHaveLength(0);
      expect(reports.map(String)).toEqual([]);
      expect((await request(app).get('/v2/patients/41')).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('without UPSTREAM_MAPPING', () => {
  test('answers are byte for byte the upstream’s and stream as they come (chunked, no Content-Length added)', async ({ plain }) => {
    const res = await request(plain).get('/v2/patients');
    expect(res.text).toBe(JSON.stringify([API_PATIENT]));
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.headers['content-length']).toBeUndefined();
  });

  test('bodies and filters reach the upstream unchanged', async ({ plain, xsrf, upstream }) => {
    const body = JSON.stringify({ birthDate: '1971-04-02', gender: 'male' });
    await request(plain).patch('/v2/patients/41').set('Cookie', xsrf.cookie).set('X-XSRF-TOKEN', xsrf.token).set('Content-Type', 'application/json').send(body);
    expect(upstream.requests[0].body).toBe(body);
    const query = `filter=${encodeURIComponent(JSON.stringify({ where: { birthDate: '1970-03-01' } }))}`;
    await request(plain).get(`/v2/patients?${query}`);
    expect(upstream.requests[1].url).toBe(`/v2/patients?${query}`);
  });
});

import type { Gateway } from '../../server/api-lane.ts';
import request from 'supertest';
import { describe, expect } from 'vitest';
import { createApp } from '../../server/app.ts';
import { testConfig } from '../helpers/gateway-fixtures.ts';
import { publicDirTest } from '../helpers/gateway-test.ts';
import { LB3_MAPPING, startLb3Upstream } from '../helpers/lb3-upstream/app.ts';
import { LB3_ACCOUNTS, LB3_PASSWORD } from '../helpers/lb3-upstream/seed.ts';
import { type XsrfPair, xsrfFrom } from '../helpers/xsrf-pair.ts';

// The gateway with the LoopBack 3 test upstream's mapping.json in front of the real LoopBack app: the client's names
// go out in LoopBack's (filters and bodies) and come back in the contract's, and LoopBack stores what it should.
type Send = (method: 'post' | 'put' | 'patch', path: string, body: unknown) => request.Test;

/** A write through the gateway with its XSRF pair and, once signed in, the token. */
function sender(gateway: Gateway, xsrf: XsrfPair, auth?: string): Send {
  return (method, path, body) => {
    const call = request(gateway)[method](path).set('Cookie', xsrf.cookie).set('X-XSRF-TOKEN', xsrf.token).set('Content-Type', 'application/json');
    return (auth ? call.set('Authorization', auth) : call).send(JSON.stringify(body));
  };
}

const test = publicDirTest
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixtures a fixture needs from its first parameter
  .extend('upstream', { scope: 'file' }, async ({}, { onCleanup }) => {
    const upstream = await startLb3Upstream();
    onCleanup(() => upstream.stop());
    return upstream;
  })
  .extend('gateway', { scope: 'file' }, ({ publicDir, upstream }) =>
    createApp(testConfig({ UPSTREAM_URL: upstream.url, UPSTREAM_MAPPING: LB3_MAPPING }), { publicDir: publicDir.dir }),
  )
  .extend('xsrf', { scope: 'file' }, ({ gateway }) => xsrfFrom(gateway))
  /** The administrator's Authorization header. */
  .extend('auth', { scope: 'file' }, async ({ gateway, xsrf }) => {
    const login = await sender(gateway, xsrf)('post', '/v2/auth/login', { email: LB3_ACCOUNTS.admin, password: LB3_PASSWORD });
    return `Bearer ${login.body.id}`;
  })
  .extend('send', { scope: 'file' }, ({ gateway, xsrf, auth }) => sender(gateway, xsrf, auth))
  .extend(
    'get',
    { scope: 'file' },
    ({ gateway, auth }) =>
      (path: string, filter?: object) =>
        request(gateway)
          .get(path)
          .query(filter ? { filter: JSON.stringify(filter) } : {})
          .set('Authorization', auth),
  );

describe('the gateway with mapping.json in front of the LoopBack 3 test upstream', () => {
  test("filters, orders and answers in the contract's names", async ({ get }) => {
    const list = await get('/v2/patients', { where: { aftercareEnd: { lt: '2100-01-01' }, gender: 'female' }, order: 'birthDate DESC', limit: 2 });
    expect(list.status).toBe(200);
    expect(list.body.map((p: { lastName: string }) => p.lastName)).toEqual(['Imhof', 'Engel']);
    expect(list.body[0]).toMatchObject({ birthDate: '1968-09-18', gender: 'female', primaryCoachId: 1, aftercareStart: expect.any(String) });
    expect(list.body[0]).not.toHaveProperty('dateOfBirth');
  });

  test("writes a PATCH in LoopBack's names and values", async ({ upstream, send }) => {
    const patched = await send('patch', '/v2/patients/2', { birthDate: '1961-03-03', gender: 'diverse' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: 2, birthDate: '1961-03-03', gender: 'diverse' });
    const stored = (await upstream.lb.models.Patient.findById(2)).toJSON();
    expect(stored).toMatchObject({ dateOfBirth: '1961-03-03', gender: 'D' });
  });

  test('stores an amount in cents as euros and answers it in cents', async ({ upstream, send }) => {
    const created = await send('post', '/v2/cost-rates', { name: 'IRENA Gruppe', amountCents: 4250, unit: 'session' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'IRENA Gruppe', amountCents: 4250 });
    expect((await upstream.lb.models.CostRate.findById(created.body.id)).toJSON()).toMatchObject({ designation: 'IRENA Gruppe', amountEuro: 42.5 });
  });

  test('lifts a sync record’s data to the top for LoopBack and nests it under data again in answers', async ({ upstream, send, get }) => {
    const data = { date: '2026-06-02', mood: 5, sleep: 4, stress: 1, pain: null, notes: '' };
    const put = await send('put', '/v2/patients/3/sync-db/day-evaluation', { id: 'de-x', data });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: 'de-x', patientId: 3, date: '2026-06-02', data });
    const stored = await upstream.lb.models.SyncEntry.findOne({ where: { recordId: 'de-x' } });
    expect(stored.toJSON()).toMatchObject({ mood: 5, sleep: 4 });
    const list = await get('/v2/patients/3/sync-db/day-evaluation', { where: { 'data.mood': { gte: 5 } } });
    expect(list.body).toEqual([expect.objectContaining({ id: 'de-x', data: expect.objectContaining({ mood: 5, date: '2026-06-02' }) })]);
  });

  test("passes LoopBack's 404 of a hasOne without a row through unchanged", async ({ get }) => {
    const none = await get('/v2/patients/4/evaluation-form');
    expect(none.status).toBe(404);
    expect(none.body.error).toMatchObject({ statusCode: 404, code: 'MODEL_NOT_FOUND' });
  });
});

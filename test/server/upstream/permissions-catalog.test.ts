import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import request from 'supertest';
import { API_FAMILIES, type ApiCall } from '../../../contract/catalog.ts';
import { createTestUpstream, type TestUpstream } from '../../helpers/upstream-app.ts';
import { issueToken } from '../../../server/upstream/features/auth/repository.ts';

/*
 * Every call of the API catalogue (docs/api.md), walked by role from its stated permission: anonymous
 * callers and locked coaches get 401 on everything that is not public; coaches and health managers get
 * 403 on administrators' calls, on other coaches' and on unlinked patients' things. Ids point at objects
 * of coach2's patient p2, which neither `coach` nor `health` may touch.
 */
const calls = API_FAMILIES.flatMap((family) => family.calls);

const idFor: Record<string, string> = {
  coaches: 'coach2',
  patients: 'p2',
  patientTokens: 'tok-p2',
  comments: 'c2',
  externalComments: 'x2',
  'cost-rates': 'rate-1',
  devices: 'dev-1',
  diagnosis: 'dx-m54',
  replicationEndpoint: 'repl-1',
  surveys: 'survey-1',
  'synced-patients': 'p2',
  news: 'news-1',
};
function concrete(call: ApiCall): string {
  const family = call.path.split('/')[1];
  return call.path
    .replace('{id}', idFor[family] ?? 'x')
    .replace('{patientId}', 'p2')
    .replace('{coachId}', 'coach2')
    .replace('{deviceId}', 'dev-1')
    .replace('{collection}', 'day-evaluation')
    .replace('{assetId}', 'x')
    .replace(/\{[^}]+\}/g, 'r1');
}
const label = (call: ApiCall) => `${call.method} ${call.path}`;
const send = (t: TestUpstream, call: ApiCall, token?: string) => {
  let req = request(t.app)[call.method.toLowerCase() as 'get'](`/v2${concrete(call)}`);
  if (token) req = req.set('Authorization', `Bearer ${token}`);
  return call.method === 'GET' || call.method === 'DELETE' ? req : req.send({});
};

let t: TestUpstream;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestUpstream();
  await t.storage.db
    .insertInto('patient_tokens')
    .values({
      id: 'tok-p2',
      code: 'ABCD-EFGH-JK',
      coachId: 'coach2',
      patientId: 'p2',
      expiresAt: '2027-02-20T09:00:00.000Z',
      usedAt: null,
      createdAt: '2026-11-22T09:00:00.000Z',
    })
    .execute();
  tokens.locked = (await issueToken(t.app.upstream, 'locked', 'access', 3600)).token;
  tokens.coach = await t.login('coach@example.org');
  tokens.health = await t.login('health@example.org');
});
afterAll(() => t.close());

const protectedCalls = calls.filter((c) => c.permission !== 'public');

describe('without a token', () => {
  test.each(protectedCalls.map((c) => [label(c), c] as const))('%s answers 401', async (_l, call) => {
    const res = await send(t, call);
    expect(res.status).toBe(401);
    expect(res.body.error.statusCode).toBe(401);
  });
});

describe('as a locked coach', () => {
  test.each(protectedCalls.map((c) => [label(c), c] as const))('%s answers 401', async (_l, call) => {
    expect((await send(t, call, tokens.locked)).status).toBe(401);
  });
});

const forbiddenFor = (role: 'coach' | 'health') =>
  calls.filter((c) => {
    const item = /\{/.test(c.path);
    switch (c.permission) {
      case 'admin':
        return true;
      // Without where.patientId (the catalogue's calls send no filter) only administrators read the history.
      case 'patient-history':
        return true;
      case 'reference-data':
        return c.method !== 'GET';
      case 'health-manager-or-admin':
        return role === 'coach';
      case 'self-or-admin':
      case 'manage-coach':
        return true;
      case 'linked-coach-or-admin':
      case 'primary-coach-or-admin':
      case 'author-or-admin':
        return item;
      default:
        return false;
    }
  });

describe.each(['coach', 'health'] as const)('as %s', (role) => {
  test.each(forbiddenFor(role).map((c) => [label(c), c] as const))('%s answers 403', async (_l, call) => {
    const res = await send(t, call, tokens[role]);
    expect(res.status, JSON.stringify(res.body)).toBe(403);
  });
});

test('the catalogue covers every family of docs/product.md#calls', () => {
  const prefixes = new Set(calls.map((c) => c.path.split('/')[1]));
  for (const p of [
    'auth',
    'app-settings',
    'coaches',
    'comments',
    'cost-rates',
    'devices',
    'diagnosis',
    'patientTokens',
    'patients',
    'replicationEndpoint',
    'surveys',
    'externalComments',
    'synced-patients',
    'news',
    'statistics',
    'system',
  ]) {
    expect(prefixes.has(p), p).toBe(true);
  }
});

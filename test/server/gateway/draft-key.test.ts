import { describe, expect } from 'vitest';
import request from 'supertest';
import { createApp } from '../../../server/app.ts';
import type { Gateway } from '../../../server/api-lane.ts';
import { captureLogger, startFakeUpstream, testConfig, unusedPort } from '../../helpers/gateway-fixtures.ts';
import { fakeUpstreamTest } from '../../helpers/gateway-test.ts';

/*
 * GET /session/draft-key: the key drafts are sealed with, handed out only for a login token the upstream accepts
 * (docs/drafts-and-sessions.md). The fake upstream knows three tokens: two of coach-1, one of coach-2.
 */
const TOKENS: Record<string, string> = { 'tok-a1': 'coach-1', 'tok-a2': 'coach-1', 'tok-b': 'coach-2' };

/** The fake upstream answers /v2/auth/me for the tokens it knows, 401 otherwise. */
const test = fakeUpstreamTest((req, res) => {
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
  if (!req.url?.endsWith('/v2/auth/me') || !TOKENS[token]) {
    res.writeHead(401, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: { statusCode: 401, code: 'INVALID_TOKEN' } }));
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ id: TOKENS[token], email: 'x@example.org' }));
}).extend(
  'gateway',
  { scope: 'file' },
  ({ publicDir, upstream }) =>
    (env: Record<string, string> = {}, logger = captureLogger().logger) =>
      createApp(testConfig({ UPSTREAM_URL: `${upstream.url}/base`, ...env }), { publicDir: publicDir.dir, logger }),
);
const keyFor = (app: Gateway, token: string) => request(app).get('/session/draft-key').set('Authorization', `Bearer ${token}`);

describe('the draft key', () => {
  test('is 32 bytes of base64url, not to be stored, and the same for every session of one coach', async ({ gateway }) => {
    const app = gateway();
    const first = await keyFor(app, 'tok-a1');
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.body.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(first.body.key, 'base64url')).toHaveLength(32);
    expect((await keyFor(app, 'tok-a2')).body.key).toBe(first.body.key);
    // A restarted gateway with the same XSRF_SECRET gives the same key: drafts of an idle logout open again.
    expect((await keyFor(gateway(), 'tok-a1')).body.key).toBe(first.body.key);
  });

  test('another coach gets another key, and another XSRF_SECRET another key for the same coach', async ({ gateway }) => {
    const app = gateway();
    const mine = (await keyFor(app, 'tok-a1')).body.key;
    expect((await keyFor(app, 'tok-b')).body.key).not.toBe(mine);
    const rotated = gateway({ XSRF_SECRET: 'another-secret-another-secret-another-1' });
    expect((await keyFor(rotated, 'tok-a1')).body.key).not.toBe(mine);
  });

  test('asks the upstream who the token belongs to, with the same Authorization header, under its path prefix', async ({ gateway, upstream }) => {
    const before = upstream.requests.length;
    await keyFor(gateway(), 'tok-b');
    const asked = upstream.requests.slice(before);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ method: 'GET', url: '/base/v2/auth/me' });
    expect(asked[0].headers.authorization).toBe('Bearer tok-b');
  });

  test('answers 401 in the error format, not to be stored, without a token or with one the upstream refuses', async ({ gateway, upstream }) => {
    const app = gateway();
    const before = upstream.requests.length;
    for (const res of [await request(app).get('/session/draft-key'), await request(app).get('/session/draft-key').set('Authorization', 'Basic eDp5')]) {
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ statusCode: 401, code: 'UNAUTHORIZED' });
      expect(res.headers['cache-control']).toBe('no-store');
    }
    expect(upstream.requests.length, 'nothing to ask the upstream without a bearer token').toBe(before);
    const refused = await keyFor(app, 'tok-ended');
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: { statusCode: 401, name: 'UnauthorizedError', code: 'UNAUTHORIZED', message: expect.any(String) } });
    expect(refused.body.key).toBeUndefined();
    expect(refused.headers['cache-control']).toBe('no-store');
  });

  test('answers 502 when the upstream is down or failing, never a key', async ({ publicDir }) => {
    const down = createApp(testConfig({ UPSTREAM_URL: `http://127.0.0.1:${await unusedPort()}` }), {
      publicDir: publicDir.dir,
      logger: captureLogger().logger,
    });
    const res = await keyFor(down, 'tok-a1');
    expect(res.status).toBe(502);
    expect(res.body.error).toMatchObject({ statusCode: 502, code: 'UPSTREAM_UNAVAILABLE' });
    expect(res.headers['cache-control']).toBe('no-store');

    const failing = await startFakeUpstream((_req, res) => void res.writeHead(503).end());
    const broken = createApp(testConfig({ UPSTREAM_URL: failing.url }), { publicDir: publicDir.dir, logger: captureLogger().logger });
    expect((await keyFor(broken, 'tok-a1')).status).toBe(502);
    await failing.close();
  });

  test('writes neither the token nor the key into the log', async ({ gateway }) => {
    const log = captureLogger();
    const res = await keyFor(gateway({}, log.logger), 'tok-a1');
    expect(res.status).toBe(200);
    await keyFor(gateway({}, log.logger), 'tok-ended');
    expect(log.lines.length).toBeGreaterThan(0);
    expect(log.text()).not.toContain('tok-a1');
    expect(log.text()).not.toContain('tok-ended');
    expect(log.text()).not.toContain(res.body.key);
  });
});

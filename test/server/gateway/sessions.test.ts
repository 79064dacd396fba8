import { describe, expect } from 'vitest';
import request from 'supertest';
import { createApp } from '../../../server/app.ts';
import { upstreamEnv } from '../../../server/upstream-process.ts';
import { testConfig } from '../../helpers/gateway-fixtures.ts';
import { fakeUpstreamTest } from '../../helpers/gateway-test.ts';
import { DEMO_PASSWORD, Session, startStack } from '../../helpers/gateway-stack.ts';
import { xsrfFrom } from '../../helpers/xsrf-pair.ts';

/*
 * The gateway's part of docs/contract.md#sessions: the idle time in the page, both limits handed to the built-in
 * upstream, and Clear-Site-Data on a successful sign-out in front of any upstream. The limits themselves:
 * test/server/upstream/sessions.test.ts; the configuration errors: config.test.ts.
 */

// Logout answers 204 for the token "live" and 401 otherwise; every answer also tries a Clear-Site-Data of its own.
const test = fakeUpstreamTest((req, res) => {
  const live = req.headers.authorization === 'Bearer live';
  const isLogout = req.method === 'POST' && /^\/v2\/auth\/logout\/?$/i.test(req.url ?? '');
  const status = isLogout && !live ? 401 : isLogout ? 204 : 200;
  res.writeHead(status, { 'Content-Type': 'application/json', 'Clear-Site-Data': '"storage", "cookies"' });
  res.end(status === 204 ? undefined : '{}');
})
  .extend(
    'gateway',
    { scope: 'file' },
    ({ publicDir, upstream }) =>
      (env: Record<string, string> = {}) =>
        createApp(testConfig({ UPSTREAM_URL: upstream.url, ...env }), { publicDir: publicDir.dir }),
  )
  /** A sign-out through a fresh gateway with the XSRF pair it handed out. */
  .extend('logout', { scope: 'file' }, ({ gateway }) => async (path: string, token: string) => {
    const app = gateway();
    const xsrf = await xsrfFrom(app);
    return request(app).post(path).set('Cookie', xsrf.cookie).set('X-XSRF-TOKEN', xsrf.token).set('Authorization', `Bearer ${token}`);
  })
  /** The gateway as a process with the built-in upstream, started only for the tests that ask for it. */
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixtures a fixture needs from its first parameter
  .extend('stack', { scope: 'file' }, async ({}, { onCleanup }) => {
    const stack = await startStack({ SESSION_MAX_HOURS: '2', SESSION_IDLE_MINUTES: '10' });
    onCleanup(async () => {
      await stack.stop();
    });
    return stack;
  });

describe('the page', () => {
  test('tells the client the idle time: 30 minutes unless SESSION_IDLE_MINUTES says otherwise', async ({ gateway }) => {
    const standard = await request(gateway()).get('/login').set('Accept-Encoding', 'identity');
    expect(standard.text).toContain('<meta name="session-idle-minutes" content="30">');
    const strict = await request(gateway({ SESSION_IDLE_MINUTES: '5' }))
      .get('/patient/42')
      .set('Accept-Encoding', 'identity');
    expect(strict.text).toContain('<meta name="session-idle-minutes" content="5">');
    expect(strict.text).not.toContain('content="30"');
  });
});

describe('the built-in upstream', () => {
  test('is handed both limits as the gateway read them', () => {
    const env = upstreamEnv(testConfig({ SESSION_IDLE_MINUTES: ' 7 ', SESSION_MAX_HOURS: '9' }), { SESSION_MAX_HOURS: '9' }, 'https://coach.example.org');
    expect(env).toMatchObject({ SESSION_IDLE_MINUTES: '7', SESSION_MAX_HOURS: '9' });
    expect(upstreamEnv(testConfig(), {}, 'https://coach.example.org')).toMatchObject({ SESSION_IDLE_MINUTES: '30', SESSION_MAX_HOURS: '12' });
  });

  describe('as a process behind the gateway', () => {
    // Starting the process may take longer than a test may: it starts here, with a hook's time.
    test.beforeAll(({ stack: _ }) => {}, 60_000);

    test('answers login with the configured lifetime and signs out with Clear-Site-Data "cache"', async ({ stack }) => {
      const session = new Session(stack.url);
      // A GET under /v2 hands out the XSRF pair without a built client.
      await session.fetch('/v2/system/settings');
      const login = await session.fetch('/v2/auth/login', { method: 'POST', body: { email: 'coach@example.org', password: DEMO_PASSWORD } });
      const body = (await login.json()) as { id: string; ttl: number };
      expect(body.ttl).toBe(2 * 3600);
      session.token = body.id;
      const logout = await session.fetch('/v2/auth/logout', { method: 'POST' });
      expect(logout.status).toBe(204);
      expect(logout.headers.get('clear-site-data')).toBe('"cache"');
      expect((await session.fetch('/v2/auth/me')).status).toBe(401);
    });
  });
});

describe('signing out through the gateway', () => {
  test.for(['/v2/auth/logout', '/v2/auth/logout/', '/v2/Auth/Logout'])('a 2xx answer to POST %s empties only the browser cache', async (path, { logout }) => {
    const res = await logout(path, 'live');
    expect(res.status).toBe(204);
    expect(res.headers['clear-site-data']).toBe('"cache"');
  });

  // The client's idle sign-out reaches the server after the session idled out there too (the computer slept): the
  // browser's cache holds the same answers as after a sign-out that succeeded.
  test('a sign-out of a session that has already ended (401) empties the browser cache too', async ({ logout }) => {
    const res = await logout('/v2/auth/logout', 'ended');
    expect(res.status).toBe(401);
    expect(res.headers['clear-site-data']).toBe('"cache"');
  });

  test('no other answer clears anything, whatever the upstream asks for (sealed drafts and the XSRF cookie stay)', async ({ gateway }) => {
    const app = gateway();
    const xsrf = await xsrfFrom(app);
    const write = await request(app).post('/v2/auth/login').set('Cookie', xsrf.cookie).set('X-XSRF-TOKEN', xsrf.token).send({});
    expect(write.status).toBe(200);
    expect(write.headers['clear-site-data']).toBeUndefined();
    expect((await request(app).get('/v2/auth/logout')).headers['clear-site-data']).toBeUndefined();
  });
});

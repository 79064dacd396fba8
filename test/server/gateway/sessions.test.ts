import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import request from 'supertest';
import { createApp } from '../../../server/app.ts';
import { upstreamEnv } from '../../../server/upstream-process.ts';
import { makePublicDir, startFakeUpstream, testConfig, type FakeUpstream } from '../../helpers/gateway-fixtures.ts';
import { DEMO_PASSWORD, Session, startStack, type Stack } from '../../helpers/gateway-stack.ts';
import { xsrfFrom } from '../../helpers/xsrf-pair.ts';

/*
 * The gateway's part of docs/contract.md#sessions: the idle time in the page, both limits handed to the built-in
 * upstream, and Clear-Site-Data on a successful sign-out in front of any upstream. The limits themselves:
 * test/server/upstream/sessions.test.ts; the configuration errors: config.test.ts.
 */

let publicDir: { dir: string; cleanup: () => void };
let upstream: FakeUpstream;
beforeAll(async () => {
  publicDir = await makePublicDir();
  // Logout answers 204 for the token "live" and 401 otherwise; every answer also tries a Clear-Site-Data of its own.
  upstream = await startFakeUpstream((req, res) => {
    const live = req.headers.authorization === 'Bearer live';
    const isLogout = req.method === 'POST' && /^\/v2\/auth\/logout\/?$/i.test(req.url ?? '');
    const status = isLogout && !live ? 401 : isLogout ? 204 : 200;
    res.writeHead(status, { 'Content-Type': 'application/json', 'Clear-Site-Data': '"storage", "cookies"' });
    res.end(status === 204 ? undefined : '{}');
  });
});
afterAll(async () => {
  await upstream.close();
  publicDir.cleanup();
});

const gateway = (env: Record<string, string> = {}) => createApp(testConfig({ UPSTREAM_URL: upstream.url, ...env }), { publicDir: publicDir.dir });

describe('the page', () => {
  test('tells the client the idle time: 30 minutes unless SESSION_IDLE_MINUTES says otherwise', async () => {
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
    let stack: Stack;
    beforeAll(async () => {
      stack = await startStack({ SESSION_MAX_HOURS: '2', SESSION_IDLE_MINUTES: '10' });
    }, 60_000);
    afterAll(() => stack?.stop());

    test('answers login with the configured lifetime and signs out with Clear-Site-Data "cache"', async () => {
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
  const logout = async (path: string, token: string) => {
    const app = gateway();
    const xsrf = await xsrfFrom(app);
    return request(app).post(path).set('Cookie', xsrf.cookie).set('X-XSRF-TOKEN', xsrf.token).set('Authorization', `Bearer ${token}`);
  };

  test.each(['/v2/auth/logout', '/v2/auth/logout/', '/v2/Auth/Logout'])('a 2xx answer to POST %s empties only the browser cache', async (path) => {
    const res = await logout(path, 'live');
    expect(res.status).toBe(204);
    expect(res.headers['clear-site-data']).toBe('"cache"');
  });

  // The client's idle sign-out reaches the server after the session idled out there too (the computer slept): the
  // browser's cache holds the same answers as after a sign-out that succeeded.
  test('a sign-out of a session that has already ended (401) empties the browser cache too', async () => {
    const res = await logout('/v2/auth/logout', 'ended');
    expect(res.status).toBe(401);
    expect(res.headers['clear-site-data']).toBe('"cache"');
  });

  test('no other answer clears anything, whatever the upstream asks for (sealed drafts and the XSRF cookie stay)', async () => {
    const app = gateway();
    const xsrf = await xsrfFrom(app);
    const write = await request(app).post('/v2/auth/login').set('Cookie', xsrf.cookie).set('X-XSRF-TOKEN', xsrf.token).send({});
    expect(write.status).toBe(200);
    expect(write.headers['clear-site-data']).toBeUndefined();
    expect((await request(app).get('/v2/auth/logout')).headers['clear-site-data']).toBeUndefined();
  });
});

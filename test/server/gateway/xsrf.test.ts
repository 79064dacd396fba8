import { describe, expect } from 'vitest';
import request from 'supertest';
import type { Gateway } from '../../../server/api-lane.ts';
import { createApp } from '../../../server/app.ts';
import { testConfig } from '../../helpers/gateway-fixtures.ts';
import { ownUpstreamTest } from '../../helpers/gateway-test.ts';

const SECRET = 'shared-secret-shared-secret-shared-secret';

// Each test its own upstream, so it sees only its own requests, and a gateway in front of it.
const test = ownUpstreamTest()
  .extend('app', ({ publicDir, upstream }) => createApp(testConfig({ UPSTREAM_URL: upstream.url, XSRF_SECRET: SECRET }), { publicDir: publicDir.dir }))
  /** `pageSession(target, path)`: the cookies and XSRF token a page of the gateway (the test's `app` unless given) hands out. */
  .extend(
    'pageSession',
    ({ app }) =>
      (target: Gateway = app, path = '/login') =>
        sessionOf(target, path),
  );

interface Cookie {
  name: string;
  value: string;
  attributes: string[];
}
function cookies(res: request.Response): Cookie[] {
  const header = res.headers['set-cookie'] as unknown as string[] | undefined;
  return (header ?? []).map((line) => {
    const [pair, ...attributes] = line.split(';').map((s) => s.trim());
    const [name, ...value] = pair.split('=');
    return { name, value: decodeURIComponent(value.join('=')), attributes };
  });
}
const cookieHeader = (list: Cookie[]) => list.map((c) => `${c.name}=${encodeURIComponent(c.value)}`).join('; ');

/** Loads the page like a browser and returns the cookies it got plus the token the client would send. */
async function sessionOf(target: Gateway, path: string) {
  const res = await request(target).get(path);
  const jar = cookies(res);
  const token = jar.find((c) => c.name === 'XSRF-TOKEN')!.value;
  return { jar, token, cookie: cookieHeader(jar) };
}

describe('the XSRF-TOKEN cookie', () => {
  test('is issued with the page: readable by scripts, SameSite=Strict, Path=/, not Secure over http', async ({ app }) => {
    const res = await request(app).get('/login');
    const token = cookies(res).find((c) => c.name === 'XSRF-TOKEN');
    expect(token).toBeDefined();
    expect(token!.value).toMatch(/^[0-9a-f]+\.[0-9a-f]+$/);
    expect(token!.attributes).toContain('SameSite=Strict');
    expect(token!.attributes).toContain('Path=/');
    expect(token!.attributes).not.toContain('HttpOnly');
    expect(token!.attributes).not.toContain('Secure');
  });

  test('the binding id cookie is httpOnly, so scripts (and XSS) cannot read it', async ({ app }) => {
    const res = await request(app).get('/login');
    const sid = cookies(res).find((c) => c.name === 'xsrf-sid');
    expect(sid!.attributes).toContain('HttpOnly');
    expect(sid!.attributes).toContain('SameSite=Strict');
  });

  test('is Secure when the request came over https through a trusted proxy', async ({ upstream, publicDir }) => {
    const behindProxy = createApp(testConfig({ UPSTREAM_URL: upstream.url, TRUST_PROXY: 'loopback' }), { publicDir: publicDir.dir });
    const res = await request(behindProxy).get('/login').set('X-Forwarded-Proto', 'https');
    for (const cookie of cookies(res)) expect(cookie.attributes).toContain('Secure');
  });

  test('X-Forwarded-Proto from an untrusted peer does not make it Secure', async ({ app }) => {
    const res = await request(app).get('/login').set('X-Forwarded-Proto', 'https');
    expect(cookies(res).find((c) => c.name === 'XSRF-TOKEN')!.attributes).not.toContain('Secure');
  });

  test('stays the same on the next page load (several tabs keep working)', async ({ app, pageSession }) => {
    const first = await pageSession();
    const again = await request(app).get('/dashboard').set('Cookie', first.cookie);
    expect(cookies(again).find((c) => c.name === 'XSRF-TOKEN')!.value).toBe(first.token);
  });

  test('is not set by API reads, with or without cookies (the pair comes with pages)', async ({ app, pageSession }) => {
    expect(cookies(await request(app).get('/v2/auth/me'))).toEqual([]);
    const { cookie } = await pageSession();
    expect(cookies(await request(app).get('/v2/auth/me').set('Cookie', cookie))).toEqual([]);
  });

  test('reaches a client that has none with the 403 of its first write, and that pair works', async ({ app, upstream }) => {
    const refused = await request(app).post('/v2/auth/logout').send({});
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('XSRF_TOKEN_INVALID');
    expect(upstream.requests).toHaveLength(0);
    const jar = cookies(refused);
    expect(jar.map((c) => c.name).sort()).toEqual(['XSRF-TOKEN', 'xsrf-sid']);
    const token = jar.find((c) => c.name === 'XSRF-TOKEN')!.value;
    const retry = await request(app).post('/v2/auth/logout').set('Cookie', cookieHeader(jar)).set('X-XSRF-TOKEN', token).send({});
    expect(retry.status).toBe(200);
    expect(upstream.requests).toHaveLength(1);
  });
});

describe('mutating /v2 calls', () => {
  test.for(['post', 'put', 'patch', 'delete'] as const)(
    '%s without X-XSRF-TOKEN gets 403 with the docs/contract.md#errors body and never reaches the upstream',
    async (method, { app, upstream, pageSession }) => {
      const { cookie } = await pageSession();
      const res = await request(app)[method]('/v2/patients/1').set('Cookie', cookie).send({ a: 1 });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: { statusCode: 403, name: 'ForbiddenError', code: 'XSRF_TOKEN_INVALID', message: expect.any(String) } });
      expect(upstream.requests).toHaveLength(0);
    },
  );

  test('with a header that does not match the cookie get 403', async ({ app, upstream, pageSession }) => {
    const { cookie, token } = await pageSession();
    const forged = token.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
    const res = await request(app).post('/v2/auth/logout').set('Cookie', cookie).set('X-XSRF-TOKEN', forged);
    expect(res.status).toBe(403);
    expect(upstream.requests).toHaveLength(0);
  });

  test('with header = cookie but no binding cookie get 403 (a planted cookie alone is useless)', async ({ app, pageSession }) => {
    const { jar, token } = await pageSession();
    const withoutSid = cookieHeader(jar.filter((c) => c.name !== 'xsrf-sid'));
    const res = await request(app).post('/v2/auth/logout').set('Cookie', withoutSid).set('X-XSRF-TOKEN', token);
    expect(res.status).toBe(403);
  });

  test('with a token made for another browser get 403', async ({ app, pageSession }) => {
    const mine = await pageSession();
    const other = await pageSession();
    const res = await request(app).post('/v2/auth/logout').set('Cookie', mine.cookie.replace(mine.token, other.token)).set('X-XSRF-TOKEN', other.token);
    expect(res.status).toBe(403);
  });

  test('with the matching header are forwarded', async ({ app, upstream, pageSession }) => {
    const { cookie, token } = await pageSession();
    const res = await request(app).post('/v2/auth/logout').set('Cookie', cookie).set('X-XSRF-TOKEN', token).send({});
    expect(res.status).toBe(200);
    expect(upstream.requests).toHaveLength(1);
  });

  test('marked Sec-Fetch-Site: cross-site are refused even with a valid token', async ({ app, upstream, pageSession }) => {
    const { cookie, token } = await pageSession();
    const res = await request(app).post('/v2/auth/logout').set('Cookie', cookie).set('X-XSRF-TOKEN', token).set('Sec-Fetch-Site', 'cross-site');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('XSRF_CROSS_SITE');
    expect(upstream.requests).toHaveLength(0);
  });

  test('same-origin Sec-Fetch-Site passes', async ({ app, pageSession }) => {
    const { cookie, token } = await pageSession();
    const res = await request(app).post('/v2/x').set('Cookie', cookie).set('X-XSRF-TOKEN', token).set('Sec-Fetch-Site', 'same-origin');
    expect(res.status).toBe(200);
  });
});

describe('safe methods', () => {
  test('GET /v2 needs no token', async ({ app, upstream }) => {
    const res = await request(app).get('/v2/news').set('Sec-Fetch-Site', 'cross-site');
    expect(res.status).toBe(200);
    expect(upstream.requests).toHaveLength(1);
  });
});

describe('several replicas', () => {
  test('a token issued by one gateway is accepted by another with the same XSRF_SECRET', async ({ app, upstream, publicDir, pageSession }) => {
    const replica = createApp(testConfig({ UPSTREAM_URL: upstream.url, XSRF_SECRET: SECRET }), { publicDir: publicDir.dir });
    const { cookie, token } = await pageSession(app);
    const res = await request(replica).post('/v2/auth/logout').set('Cookie', cookie).set('X-XSRF-TOKEN', token);
    expect(res.status).toBe(200);
  });

  test('a gateway with a different secret refuses it', async ({ app, upstream, publicDir, pageSession }) => {
    const stranger = createApp(testConfig({ UPSTREAM_URL: upstream.url, XSRF_SECRET: 'another-secret-another-secret-another-1' }), {
      publicDir: publicDir.dir,
    });
    const { cookie, token } = await pageSession(app);
    const res = await request(stranger).post('/v2/auth/logout').set('Cookie', cookie).set('X-XSRF-TOKEN', token);
    expect(res.status).toBe(403);
  });

  test('the refusal carries a fresh valid token so the client recovers on retry', async ({ app, upstream, publicDir, pageSession }) => {
    const stranger = createApp(testConfig({ UPSTREAM_URL: upstream.url, XSRF_SECRET: 'another-secret-another-secret-another-1' }), {
      publicDir: publicDir.dir,
    });
    const { jar, cookie, token } = await pageSession(app);
    const refused = await request(stranger).post('/v2/auth/logout').set('Cookie', cookie).set('X-XSRF-TOKEN', token);
    const fresh = cookies(refused).find((c) => c.name === 'XSRF-TOKEN')!.value;
    expect(fresh).not.toBe(token);
    const retryCookie = cookieHeader(jar.map((c) => (c.name === 'XSRF-TOKEN' ? { ...c, value: fresh } : c)));
    const retry = await request(stranger).post('/v2/auth/logout').set('Cookie', retryCookie).set('X-XSRF-TOKEN', fresh);
    expect(retry.status).toBe(200);
  });
});

describe('the upstream', () => {
  test('never sees the gateway binding cookie, but other cookies pass', async ({ app, upstream, pageSession }) => {
    const { cookie, token } = await pageSession();
    await request(app).post('/v2/auth/logout').set('Cookie', `${cookie}; theme=dark`).set('X-XSRF-TOKEN', token);
    const forwarded = upstream.requests[0].headers.cookie ?? '';
    expect(forwarded).not.toContain('xsrf-sid');
    expect(forwarded).toContain('theme=dark');
  });
});

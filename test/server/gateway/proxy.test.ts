import { describe, expect } from 'vitest';
import request from 'supertest';
import { request as httpRequest } from 'node:http';
import { createApp } from '../../../server/app.ts';
import { listen, startFakeUpstream, testConfig, unusedPort } from '../../helpers/gateway-fixtures.ts';
import { ownUpstreamTest } from '../../helpers/gateway-test.ts';
import { xsrfFrom } from '../../helpers/xsrf-pair.ts';

// Each test its own upstream, so it sees only its own requests, and a gateway in front of it.
const test = ownUpstreamTest().extend('app', ({ publicDir, upstream }) =>
  createApp(testConfig({ UPSTREAM_URL: upstream.url, PROXY_TIMEOUT_MS: '300' }), { publicDir: publicDir.dir }),
);

describe('the /v2 proxy', () => {
  test('keeps the /v2 path and the query string', async ({ app, upstream }) => {
    const res = await request(app).get('/v2/patients?filter=%7B%22limit%22%3A20%7D');
    expect(res.status).toBe(200);
    expect(upstream.requests[0].url).toBe('/v2/patients?filter=%7B%22limit%22%3A20%7D');
  });

  test('puts the path prefix of UPSTREAM_URL in front', async ({ upstream, publicDir }) => {
    const prefixed = createApp(testConfig({ UPSTREAM_URL: `${upstream.url}/api/base` }), { publicDir: publicDir.dir });
    await request(prefixed).get('/v2/news');
    expect(upstream.requests[0].url).toBe('/api/base/v2/news');
  });

  test('passes the upstream status, headers and body through', async ({ publicDir }) => {
    const custom = await startFakeUpstream((_req, res) => {
      res.writeHead(201, { 'Content-Type': 'application/json', 'X-Total-Count': '42' });
      res.end('[{"id":"1"}]');
    });
    const target = createApp(testConfig({ UPSTREAM_URL: custom.url }), { publicDir: publicDir.dir });
    const res = await request(target).get('/v2/patients');
    expect(res.status).toBe(201);
    expect(res.headers['x-total-count']).toBe('42');
    expect(res.body).toEqual([{ id: '1' }]);
    await custom.close();
  });

  test('streams a request body unchanged (nothing parses it first)', async ({ app, upstream }) => {
    const { cookie, token } = await xsrfFrom(app);
    const body = JSON.stringify({ email: 'a@b.de', text: 'ü'.repeat(20_000) });
    const res = await request(app).post('/v2/comments').set('Cookie', cookie).set('X-XSRF-TOKEN', token).set('Content-Type', 'application/json').send(body);
    expect(res.status).toBe(200);
    expect(upstream.requests[0].body).toBe(body);
    expect(upstream.requests[0].headers['content-type']).toBe('application/json');
  });

  test('streams the answer as it comes (first bytes arrive before the upstream finishes)', async ({ publicDir }) => {
    let finish: () => void = () => {};
    const streaming = await startFakeUpstream((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('first;');
      finish = () => res.end('last');
    });
    const gateway = await listen(createApp(testConfig({ UPSTREAM_URL: streaming.url }), { publicDir: publicDir.dir }));
    const text = await new Promise<string>((resolve, reject) => {
      httpRequest(`${gateway.url}/v2/export`, (res) => {
        let received = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          received += chunk;
          if (received === 'first;') finish();
        });
        res.on('end', () => resolve(received));
      })
        .on('error', reject)
        .end();
    });
    expect(text).toBe('first;last');
    await gateway.close();
    await streaming.close();
  });

  test('sets X-Forwarded-For, -Proto and -Host, replacing values an untrusted client sent', async ({ upstream, publicDir }) => {
    const portal = createApp(testConfig({ UPSTREAM_URL: upstream.url, PUBLIC_URL: 'https://portal.example.org' }), { publicDir: publicDir.dir });
    await request(portal)
      .get('/v2/me')
      .set('Host', 'portal.example.org')
      .set('X-Forwarded-Host', 'evil.example')
      .set('X-Forwarded-For', '6.6.6.6')
      .set('X-Forwarded-Proto', 'https')
      .set('X-Forwarded-Port', '444')
      .set('X-Real-IP', '6.6.6.6')
      .set('Forwarded', 'for=6.6.6.6;host=evil.example;proto=https');
    const headers = upstream.requests[0].headers;
    expect(headers['x-forwarded-host']).toBe('portal.example.org');
    expect(headers['x-forwarded-proto']).toBe('http');
    expect(headers['x-forwarded-for']).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    for (const forged of ['x-forwarded-port', 'x-real-ip', 'forwarded']) expect(headers, forged).not.toHaveProperty(forged);
  });

  test('passes on X-Forwarded-* from a trusted proxy (TRUST_PROXY)', async ({ upstream, publicDir }) => {
    const trusted = createApp(testConfig({ UPSTREAM_URL: upstream.url, TRUST_PROXY: 'loopback', PUBLIC_URL: 'https://portal.example.org' }), {
      publicDir: publicDir.dir,
    });
    await request(trusted).get('/v2/me').set('X-Forwarded-Host', 'portal.example.org').set('X-Forwarded-Proto', 'https').set('X-Forwarded-For', '203.0.113.9');
    const headers = upstream.requests[0].headers;
    expect(headers['x-forwarded-host']).toBe('portal.example.org');
    expect(headers['x-forwarded-proto']).toBe('https');
    // The client address as resolved through the trusted hops, not the raw chain.
    expect(headers['x-forwarded-for']).toBe('203.0.113.9');
  });

  test('forwards the Authorization header and the request id', async ({ app, upstream }) => {
    await request(app).get('/v2/auth/me').set('Authorization', 'Bearer abc').set('X-Request-Id', 'req-42');
    expect(upstream.requests[0].headers.authorization).toBe('Bearer abc');
    expect(upstream.requests[0].headers['x-request-id']).toBe('req-42');
  });

  test('a refused connection is a 502 JSON error at once, not after the proxy timeout', async ({ publicDir }) => {
    const down = createApp(testConfig({ UPSTREAM_URL: `http://127.0.0.1:${await unusedPort()}` }), { publicDir: publicDir.dir });
    await request(down).get('/v2/warmup');
    const started = performance.now();
    const res = await request(down).get('/v2/news');
    const elapsed = performance.now() - started;
    expect(res.status).toBe(502);
    expect(res.body.error).toMatchObject({ statusCode: 502, code: 'UPSTREAM_UNAVAILABLE' });
    // The proxy timeout is 30 s here; a retry with backoff would take seconds. A loaded machine takes milliseconds.
    expect(elapsed).toBeLessThan(1000);
  });

  test('an upstream slower than PROXY_TIMEOUT_MS gives 504 JSON', async ({ app }) => {
    const started = performance.now();
    const res = await request(app).get('/v2/slow?ms=2000');
    expect(res.status).toBe(504);
    expect(res.body.error).toMatchObject({ statusCode: 504, code: 'UPSTREAM_TIMEOUT' });
    expect(performance.now() - started).toBeLessThan(1500);
  });

  test('an answer within PROXY_TIMEOUT_MS is passed through', async ({ app }) => {
    const res = await request(app).get('/v2/slow?ms=50');
    expect(res.status).toBe(200);
  });

  test('nothing is retried: a failing POST reaches the upstream once', async ({ publicDir }) => {
    const flaky = await startFakeUpstream((req) => req.socket.destroy());
    const target = createApp(testConfig({ UPSTREAM_URL: flaky.url }), { publicDir: publicDir.dir });
    const { cookie, token } = await xsrfFrom(target);
    const res = await request(target).post('/v2/patients').set('Cookie', cookie).set('X-XSRF-TOKEN', token).send({ a: 1 });
    expect(res.status).toBe(502);
    expect(flaky.requests).toHaveLength(1);
    await flaky.close();
  });

  test('API answers are not cacheable unless the upstream says so', async ({ app, publicDir }) => {
    const res = await request(app).get('/v2/patients');
    expect(res.headers['cache-control']).toBe('no-store');
    const cacheable = await startFakeUpstream((_req, res) => {
      res.writeHead(200, { 'Cache-Control': 'private, max-age=60', 'Content-Type': 'application/json' });
      res.end('{}');
    });
    const target = createApp(testConfig({ UPSTREAM_URL: cacheable.url }), { publicDir: publicDir.dir });
    expect((await request(target).get('/v2/app-settings/version')).headers['cache-control']).toBe('private, max-age=60');
    await cacheable.close();
  });

  test('paths outside /v2 are not proxied', async ({ app, upstream }) => {
    await request(app).get('/v2x');
    await request(app).get('/api/v2/news');
    expect(upstream.requests).toHaveLength(0);
  });

  test('upstream security headers cannot weaken the gateway policy', async ({ publicDir }) => {
    const loose = await startFakeUpstream((_req, res) => {
      res.writeHead(200, { 'Content-Security-Policy': "script-src 'unsafe-inline'", 'X-Powered-By': 'Express', 'Content-Type': 'application/json' });
      res.end('{}');
    });
    const target = createApp(testConfig({ UPSTREAM_URL: loose.url }), { publicDir: publicDir.dir });
    const res = await request(target).get('/v2/x');
    expect(res.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(res.headers['x-powered-by']).toBeUndefined();
    await loose.close();
  });
});

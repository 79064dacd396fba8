import { describe, expect } from 'vitest';
import request from 'supertest';
import type { Gateway } from '../../../server/api-lane.ts';
import { createApp } from '../../../server/app.ts';
import { ENTRY_JS, startFakeUpstream, testConfig, unusedPort } from '../../helpers/gateway-fixtures.ts';
import { fakeUpstreamTest } from '../../helpers/gateway-test.ts';

const test = fakeUpstreamTest()
  .extend('app', { scope: 'file' }, ({ publicDir, upstream }) => createApp(testConfig({ UPSTREAM_URL: upstream.url }), { publicDir: publicDir.dir }))
  /** A gateway whose upstream is down. */
  .extend('down', { scope: 'file' }, async ({ publicDir }) =>
    createApp(testConfig({ UPSTREAM_URL: `http://127.0.0.1:${await unusedPort()}` }), { publicDir: publicDir.dir }),
  );

function directives(csp: string): Map<string, string> {
  return new Map(
    csp.split(';').map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name, values.join(' ')] as [string, string];
    }),
  );
}

function expectSecurityHeaders(res: request.Response) {
  const csp = res.headers['content-security-policy'];
  expect(csp, 'CSP').toBeDefined();
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain('unsafe-eval');
  const d = directives(csp);
  expect(d.get('default-src')).toBe("'self'");
  expect(d.get('script-src')).toBe("'self'");
  expect(d.get('style-src')).toBe("'self'");
  expect(d.get('object-src')).toBe("'none'");
  expect(d.get('base-uri')).toBe("'none'");
  expect(d.get('frame-ancestors')).toBe("'none'");
  expect(d.get('form-action')).toBe("'self'");
  expect(d.get('connect-src')).toBe("'self'");
  expect(res.headers['strict-transport-security']).toMatch(/max-age=31536000/);
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['x-powered-by']).toBeUndefined();
  expectFeaturesOff(res.headers['permissions-policy']);
}

/** What a page of this product never needs, turned off for it and for anything it embeds. */
function expectFeaturesOff(policy: string | undefined) {
  expect(policy, 'Permissions-Policy').toBeDefined();
  const allowed = new Map(policy!.split(',').map((part) => part.trim().split('=') as [string, string]));
  for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'serial', 'bluetooth', 'hid', 'midi', 'display-capture']) {
    expect(allowed.get(feature), feature).toBe('()');
  }
  expect(allowed.has('clipboard-write'), 'the copy buttons write to the clipboard').toBe(false);
}

/**
 * An API answer (OWASP REST Security Cheat Sheet): framed nowhere, never sniffed, HTTPS only, and as a document it
 * may load nothing; what only a page uses is not sent.
 */
function expectApiHeaders(res: request.Response) {
  const d = directives(res.headers['content-security-policy']);
  expect(d.get('default-src')).toBe("'none'");
  expect(d.get('frame-ancestors')).toBe("'none'");
  expect(res.headers['strict-transport-security']).toMatch(/max-age=31536000/);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
  expect(res.headers['x-powered-by']).toBeUndefined();
  for (const pageOnly of ['permissions-policy', 'cross-origin-opener-policy', 'origin-agent-cluster', 'x-dns-prefetch-control']) {
    expect(res.headers[pageOnly], pageOnly).toBeUndefined();
  }
}

describe('security headers', () => {
  const cases: [string, (app: Gateway, down: Gateway) => request.Test][] = [
    ['the page', (app) => request(app).get('/login')],
    ['a hashed asset', (app) => request(app).get(ENTRY_JS)],
    ['a locale file', (app) => request(app).get('/assets/i18n/de.json')],
    ['an unknown asset (404)', (app) => request(app).get('/assets/nope.js')],
    ['an unknown page path (404)', (app) => request(app).get('/nope')],
    ['the unsupported-browser page', (app) => request(app).get('/internet-explorer-msg')],
    ['the health check', (app) => request(app).get('/healthz')],
  ];
  test.for(cases)('are on %s', async ([_name, make], { app, down }) => {
    expectSecurityHeaders(await make(app, down));
  });

  const apiCases: typeof cases = [
    ['a proxied /v2 answer', (app) => request(app).get('/v2/news')],
    ['a proxied /v2 answer with a query', (app) => request(app).get('/v2/news?filter=%7B%7D')],
    ['a /v2 XSRF refusal (403)', (app) => request(app).post('/v2/news/1/read/2')],
    ['a /v2 answer with the upstream down (502)', (_app, down) => request(down).get('/v2/news')],
  ];
  test.for(apiCases)("are an API answer's on %s", async ([_name, make], { app, down }) => {
    expectApiHeaders(await make(app, down));
  });

  test("an upstream's own policy headers are not passed on", async ({ publicDir }) => {
    const loose = await startFakeUpstream((_req, res) => {
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'Permissions-Policy': 'camera=*, geolocation=*',
        'Content-Security-Policy': 'default-src *',
        'Cross-Origin-Resource-Policy': 'cross-origin',
        'X-Frame-Options': 'ALLOWALL',
      });
      res.end('{}');
    });
    try {
      const res = await request(createApp(testConfig({ UPSTREAM_URL: loose.url }), { publicDir: publicDir.dir })).get('/v2/news');
      expect(res.status).toBe(200);
      expectApiHeaders(res);
    } finally {
      await loose.close();
    }
  });

  test('connect-src adds the Sentry origin when SENTRY_DSN is set', async ({ upstream, publicDir }) => {
    const withSentry = createApp(testConfig({ UPSTREAM_URL: upstream.url, SENTRY_DSN: 'https://key@o77.ingest.sentry.io/123' }), { publicDir: publicDir.dir });
    const res = await request(withSentry).get('/login');
    expect(directives(res.headers['content-security-policy']).get('connect-src')).toBe("'self' https://o77.ingest.sentry.io");
  });
});

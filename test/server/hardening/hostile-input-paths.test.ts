import { describe, expect, vi } from 'vitest';
import fc from 'fast-check';
import { rawRequest } from '../../helpers/gateway-stack.ts';
import { expectCleanStop, expectJsonError, expectNoLeak, expectStillServing, isApi, rawGet, signedInStackTest } from '../../helpers/hostile-answers.ts';

/*
 * Hostile paths against the real gateway process with its built-in upstream: traversals toward files outside the
 * served folders, then arbitrary request lines and headers. No file outside dist/public comes back, every answer is
 * a well-formed HTTP response (the docs/contract.md#errors JSON error under /v2), and the process keeps serving.
 * The malformed requests are in hostile-input-malformed.test.ts.
 */

// Real sockets against a real process: room for a busy 2-core CI machine.
vi.setConfig({ testTimeout: 20_000 });

const test = signedInStackTest;
// The process starts here, with a hook's time rather than the first test's.
test.beforeAll(({ session: _ }) => {}, 60_000);
test.afterAll(({ stack }) => expectCleanStop(stack));

const TRAVERSALS = [
  '/../package.json',
  '/../../package.json',
  '/..%2fpackage.json',
  '/..%2f..%2fpackage.json',
  '/%2e%2e/%2e%2e/package.json',
  '/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '/assets/../../package.json',
  '/assets/..%2f..%2fpackage.json',
  '/assets/%2e%2e/%2e%2e/tsconfig.json',
  '/assets/..%5c..%5cpackage.json',
  '/assets/....//....//package.json',
  '//etc/passwd',
  '///etc/passwd',
  '/assets//..//..//server/config.ts',
  '/assets/%252e%252e/%252e%252e/package.json',
  '/assets/%c0%ae%c0%ae/package.json',
  '/internet-explorer-msg/../../package.json',
  '/v2/../package.json',
  '/v2/..%2f..%2fpackage.json',
  '/v2//../../etc/passwd',
  '/v2/app-settings/asset/..%2f..%2f..%2fpackage.json',
  '/v2/app-settings/asset/%2e%2e%2f%2e%2e%2fupstream.sqlite',
  '/index.html/../../package.json',
  '/server/config.ts',
  '/package.json',
  '/node_modules/express/package.json',
  '/.git/config',
  '/.env',
];

describe('paths toward files outside the served folders', () => {
  test.for(TRAVERSALS)('%s reveals no file outside dist/public', async (target, { stack }) => {
    const answer = await rawRequest(stack.port, rawGet(target));
    expect(answer.outcome, target).toBe('answered');
    expectNoLeak(answer, target);
    // A client route may answer with the page (SPA fallback, 404 for unknown paths); nothing else is a 200.
    if (answer.status === 200) expect(answer.headers['content-type']?.[0], target).toMatch(/^text\/html/);
    // Under /v2 as the URL resolves ('/v2/../x' is '/x', a page path): errors are the JSON error body.
    if (isApi(target) && answer.status >= 400) expectJsonError(answer, target);
  });
});

describe('property: arbitrary request lines and headers', () => {
  const segment = fc.oneof(
    fc.constantFrom(
      '..',
      '.',
      '%2e%2e',
      '%2E%2E%2F',
      '%2f',
      '%5c',
      '%00',
      '%',
      '%zz',
      '%c0%ae',
      '',
      'v2',
      'assets',
      'login',
      'etc',
      'passwd',
      'package.json',
      '~',
      '*',
      ';',
      '%0d%0a',
      '?',
      '#',
    ),
    fc.string({ unit: 'grapheme-ascii', maxLength: 12 }).map((s) => encodeURI(s)),
    fc.string({ unit: 'binary', maxLength: 6 }).map((s) => encodeURIComponent(s)),
  );
  const path = fc.array(segment, { maxLength: 8 }).map((parts) => `/${parts.join('/')}`);
  const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'FOO');
  const headerValue = fc.string({ unit: 'grapheme-ascii', maxLength: 300 }).map((s) => s.replace(/[\r\n]/g, ''));
  const header = fc.tuple(
    fc.constantFrom(
      'User-Agent',
      'Accept-Encoding',
      'If-None-Match',
      'Cookie',
      'X-XSRF-TOKEN',
      'Authorization',
      'X-Forwarded-For',
      'X-Forwarded-Host',
      'X-Request-Id',
      'Content-Type',
      'Range',
      'Accept-Language',
    ),
    headerValue,
  );

  test('every answer is a complete HTTP response below 600, nothing leaks, the gateway keeps serving', async ({ stack, session }) => {
    await fc.assert(
      fc.asyncProperty(method, path, fc.array(header, { maxLength: 6 }), fc.option(fc.string({ maxLength: 200 })), async (m, p, headers, body) => {
        const lines = [`${m} ${p} HTTP/1.1`, 'Host: localhost', 'Connection: close', ...headers.map(([k, v]) => `${k}: ${v}`)];
        if (body !== null) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
        const answer = await rawRequest(stack.port, `${lines.join('\r\n')}\r\n\r\n${body ?? ''}`, 5000, m);
        expect(answer.outcome, `${m} ${p}`).toBe('answered');
        expect(answer.status, `${m} ${p}`).toBeGreaterThanOrEqual(200);
        expect(answer.status, `${m} ${p}`).toBeLessThan(600);
        // 5xx would mean the gateway or upstream failed on input; malformed input is the client's fault.
        expect(answer.status, `${m} ${p}`).toBeLessThan(500);
        expectNoLeak(answer, `${m} ${p}`);
        if (isApi(p) && answer.status >= 400 && m !== 'HEAD' && answer.body.length > 0) expectJsonError(answer, `${m} ${p}`);
      }),
      { numRuns: 300, seed: 20261122 },
    );
    await expectStillServing(stack, session);
  }, 120_000);
});

import { describe, expect } from 'vitest';
import { request as httpRequest } from 'node:http';
import { gatewayProcessTest } from '../../helpers/gateway-test.ts';
import type { GatewayProcess } from '../../helpers/gateway-process.ts';
import { startFaultyUpstream } from '../../helpers/faulty-upstream.ts';
import type { FaultMode } from '../../helpers/faulty-upstream.ts';
import { Session, XSRF_SECRET } from '../../helpers/gateway-stack.ts';

/*
 * The real gateway process in front of an upstream that fails in every way we know: refused, cut before or in
 * the middle of an answer, too slow, not speaking HTTP. The browser gets a 502/504 with the docs/contract.md JSON body
 * (or, when the answer had already started, a cut connection - never a silently truncated "success"); a write
 * reaches the upstream exactly once; the gateway keeps serving.
 */

const TIMEOUT_MS = 400;
const test = gatewayProcessTest(startFaultyUpstream, { PROXY_TIMEOUT_MS: String(TIMEOUT_MS), XSRF_SECRET, LOG_LEVEL: 'warn' })
  .extend('session', { scope: 'file' }, async ({ gateway }) => {
    const session = new Session(gateway.url);
    // The XSRF cookies come with any GET /v2 answer.
    await session.fetch('/v2/app-settings/version');
    session.token = 'opaque-test-token';
    return session;
  })
  /** The upstream answers again: the gateway still runs and passes a write on. */
  .extend('expectHealthy', { scope: 'file' }, ({ upstream, gateway, session }) => async (): Promise<void> => {
    await upstream.setMode('ok');
    expect(gateway.child.exitCode).toBeNull();
    const res = await session.fetch('/v2/comments', { method: 'POST', body: { patientId: 'p1', text: 'danach' } });
    expect(res.status).toBe(201);
  })
  /** A POST over node:http, so the test sees exactly how the answer ended. */
  .extend(
    'post',
    { scope: 'file' },
    ({ gateway, session }) =>
      (path: string, body: string) =>
        postRaw(gateway, session, path, body),
  );
// The process starts here, with a hook's time rather than the first test's.
test.beforeAll(({ session: _ }) => {}, 60_000);

test.afterAll(async ({ gateway }) => {
  gateway.child.kill('SIGTERM');
  expect(await gateway.exited).toEqual({ code: 0, signal: null });
});

function postRaw(gateway: GatewayProcess, session: Session, path: string, body: string): Promise<{ status: number; complete: boolean; received: number }> {
  return new Promise((resolve) => {
    const req = httpRequest(`${gateway.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: [...session.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'X-XSRF-TOKEN': session.xsrf },
    });
    req.on('response', (res) => {
      let received = 0;
      res.on('data', (chunk: Buffer) => (received += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, complete: res.complete, received }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, complete: false, received }));
      res.on('aborted', () => resolve({ status: res.statusCode ?? 0, complete: false, received }));
    });
    req.on('error', () => resolve({ status: 0, complete: false, received: 0 }));
    req.end(body);
  });
}

async function expectGatewayError(res: Response, status: number, code: string): Promise<void> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = await res.json();
  expect(body).toEqual({ error: expect.objectContaining({ statusCode: status, code }) });
}

const cases: { mode: FaultMode; status: number; code: string }[] = [
  { mode: 'down', status: 502, code: 'UPSTREAM_UNAVAILABLE' },
  { mode: 'reset', status: 502, code: 'UPSTREAM_UNAVAILABLE' },
  { mode: 'garbage', status: 502, code: 'UPSTREAM_UNAVAILABLE' },
  { mode: 'slow', status: 504, code: 'UPSTREAM_TIMEOUT' },
];

describe.each(cases)('upstream $mode', ({ mode, status, code }) => {
  test(`GET answers ${status} JSON and the gateway keeps serving`, async ({ upstream, session, expectHealthy }) => {
    await upstream.setMode(mode);
    const started = Date.now();
    await expectGatewayError(await session.fetch('/v2/comments'), status, code);
    if (mode === 'slow') expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 2000);
    await expectHealthy();
  }, 20_000);

  test(`POST answers ${status} JSON and reached the upstream at most once (never retried)`, async ({ upstream, session, expectHealthy }) => {
    await upstream.setMode(mode);
    const before = upstream.posts().length;
    await expectGatewayError(await session.fetch('/v2/comments', { method: 'POST', body: { patientId: 'p1', text: `fault ${mode}` } }), status, code);
    // Give a retry, if there were one, the time to arrive.
    await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS));
    const arrived = upstream.posts().slice(before);
    expect(arrived.length).toBe(mode === 'down' ? 0 : 1);
    for (const post of arrived) expect(JSON.parse(post.body).text).toBe(`fault ${mode}`);
    await expectHealthy();
  }, 20_000);
});

describe('upstream cuts the answer in the middle of the body', () => {
  test('the browser sees a broken answer (never a complete 200) and the POST reached the upstream once', async ({ upstream, expectHealthy, post }) => {
    await upstream.setMode('midbody');
    const before = upstream.posts().length;
    const answer = await post('/v2/comments', JSON.stringify({ patientId: 'p1', text: 'mitten drin' }));
    expect(answer.complete).toBe(false);
    expect(answer.received).toBeLessThan(4096);
    await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS));
    expect(upstream.posts().length - before).toBe(1);
    await expectHealthy();
  }, 20_000);

  test('fetch rejects while reading the body, so the client reports an error instead of using half an answer', async ({ upstream, session, expectHealthy }) => {
    await upstream.setMode('midbody');
    const res = await session.fetch('/v2/comments', { method: 'POST', body: { patientId: 'p1', text: 'halb' } });
    await expect(res.text()).rejects.toThrow();
    await expectHealthy();
  }, 20_000);
});

test('after a series of faults the gateway logged them without request bodies', async ({ gateway }) => {
  // Lines reach stdout in batches, at the latest a second after they were logged.
  const logged = (log: string) => /upstream unreachable/.test(log) && /upstream timed out/.test(log);
  await expect.poll(() => logged(gateway.stdout()), { timeout: 5_000 }).toBe(true);
  const log = gateway.stdout();
  expect(log).not.toContain('fault reset');
  expect(log).not.toContain('opaque-test-token');
});

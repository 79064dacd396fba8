import { afterAll, beforeAll, expect, test } from 'vitest';
import { startFakeUpstream } from '../../helpers/gateway-fixtures.ts';
import type { FakeUpstream } from '../../helpers/gateway-fixtures.ts';
import { spawnGateway } from '../../helpers/gateway-process.ts';
import type { GatewayProcess } from '../../helpers/gateway-process.ts';
import { Session, XSRF_SECRET, rawRequest } from '../../helpers/hardening-http.ts';

/* With any upstream (here one that accepts everything), a /v2 body over 1 MB is refused by the gateway itself. */

let upstream: FakeUpstream;
let gateway: GatewayProcess;
beforeAll(async () => {
  upstream = await startFakeUpstream();
  gateway = await spawnGateway({ UPSTREAM_URL: upstream.url, XSRF_SECRET, LOG_LEVEL: 'warn' });
}, 60_000);
afterAll(async () => {
  gateway.child.kill('SIGTERM');
  await gateway.exited;
  await upstream.close();
});

test('a /v2 body announced over 1 MB gets 413 JSON and never reaches the upstream', async () => {
  const session = new Session(gateway.url);
  await session.fetch('/v2/app-settings/version');
  upstream.requests.length = 0;
  const res = await session.fetch('/v2/comments', { method: 'POST', body: JSON.stringify({ text: 'x'.repeat(1024 * 1024 + 1) }) });
  expect(res.status).toBe(413);
  expect(await res.json()).toEqual({ error: expect.objectContaining({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE' }) });
  expect(upstream.requests).toEqual([]);
  // Just under the limit passes through untouched.
  const fits = await session.fetch('/v2/comments', { method: 'POST', body: JSON.stringify({ text: 'x'.repeat(1000 * 1000) }) });
  expect(fits.status).toBe(200);
  expect(upstream.requests).toHaveLength(1);
}, 20_000);

test('a huge announced length is refused at once, without waiting for the body', async () => {
  const started = Date.now();
  const answer = await rawRequest(gateway.port, 'POST /v2/comments HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 5000000000\r\n\r\n{"text":"');
  expect(answer.outcome).toBe('answered');
  expect(answer.status).toBe(413);
  expect(Date.now() - started).toBeLessThan(2000);
  expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
}, 20_000);

import { afterAll, beforeAll, expect, test } from 'vitest';
import { get as httpGet } from 'node:http';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { startFakeUpstream } from '../../helpers/gateway-fixtures.ts';
import type { FakeUpstream } from '../../helpers/gateway-fixtures.ts';
import { spawnGateway } from '../../helpers/gateway-process.ts';
import type { GatewayProcess } from '../../helpers/gateway-process.ts';
import { XSRF_SECRET } from '../../helpers/gateway-spawn.ts';

/*
 * Slow-loris: many connections that send their headers one byte at a time and never finish. The gateway
 * (server/http-server.ts: headersTimeout from HEADERS_TIMEOUT_MS, checked every 2 s) must keep answering normal clients
 * quickly the whole time and must itself close the slow connections once the header timeout has passed. The test sets
 * 6 s instead of the default 20 s: the mechanism is the same, the wait shorter.
 */

const SLOW_CONNECTIONS = 300;
const HEADERS_TIMEOUT_MS = 6_000;

let upstream: FakeUpstream;
let gateway: GatewayProcess;
beforeAll(async () => {
  upstream = await startFakeUpstream();
  gateway = await spawnGateway({ UPSTREAM_URL: upstream.url, XSRF_SECRET, LOG_LEVEL: 'warn', HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS) });
}, 60_000);
afterAll(async () => {
  gateway.child.kill('SIGTERM');
  await gateway.exited;
  await upstream.close();
});

function timedGet(path: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    httpGet(`${gateway.url}${path}`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    }).on('error', reject);
  });
}

interface Loris {
  socket: Socket;
  openedAt: number;
  closedAt?: number;
  received: string;
}

test('300 byte-by-byte header senders do not starve a normal client and are cut by the header timeout', async () => {
  const lorises: Loris[] = [];
  const drip = setInterval(() => {
    for (const loris of lorises) if (!loris.closedAt) loris.socket.write('a');
  }, 1000);
  for (let i = 0; i < SLOW_CONNECTIONS; i++) {
    const socket = connect(gateway.port, '127.0.0.1');
    const loris: Loris = { socket, openedAt: Date.now(), received: '' };
    socket.on('data', (chunk: Buffer) => (loris.received += chunk.toString('latin1')));
    socket.on('close', () => (loris.closedAt = Date.now()));
    socket.on('error', () => {});
    socket.write(`GET /login HTTP/1.1\r\nHost: localhost\r\nX-Slow-${i}: `);
    lorises.push(loris);
  }

  // A normal client keeps working while all of them hang on: a page, an API call and the health check.
  const samples: { status: number; ms: number }[] = [];
  const deadline = Date.now() + HEADERS_TIMEOUT_MS + 8_000;
  while (Date.now() < deadline && lorises.some((l) => !l.closedAt)) {
    samples.push(await timedGet('/healthz'), await timedGet('/v2/app-settings/version'), await timedGet('/login'));
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  clearInterval(drip);
  const closedByGateway = lorises.filter((l) => l.closedAt !== undefined).length;
  for (const loris of lorises) loris.socket.destroy();

  expect(samples.length).toBeGreaterThan(30);
  expect(samples.every((s) => s.status === 200 || s.status === 503)).toBe(true);
  const worst = Math.max(...samples.map((s) => s.ms));
  // Generous: on a loaded 2-core CI machine other test files compete for the CPU; starvation would mean seconds or no answer.
  expect(worst, `slowest normal answer ${Math.round(worst)} ms`).toBeLessThan(2500);

  // The gateway closed every slow connection itself, not before the header timeout and not long after it.
  expect(closedByGateway).toBe(SLOW_CONNECTIONS);
  const lifetimes = lorises.map((l) => (l.closedAt ?? Infinity) - l.openedAt);
  expect(Math.min(...lifetimes)).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 1000);
  expect(Math.max(...lifetimes)).toBeLessThan(HEADERS_TIMEOUT_MS + 6_000);
  // Node answers an expired header block with 408 before closing.
  expect(lorises.filter((l) => l.received.startsWith('HTTP/1.1 408')).length).toBe(SLOW_CONNECTIONS);
  expect(gateway.child.exitCode).toBeNull();
}, 60_000);

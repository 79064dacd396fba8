import { afterAll, beforeAll, expect, test } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { openStorage } from '../../../server/upstream/db/index.ts';
import { REPO_ROOT } from '../../helpers/gateway-fixtures.ts';
import { DEMO_PASSWORD, Session, startStack } from '../../helpers/gateway-stack.ts';
import type { Stack } from '../../helpers/gateway-stack.ts';

/*
 * Load through the real gateway to the built-in upstream: 100 connections for 15 s (HARDENING_LOAD_SECONDS), a mix of the page, a
 * hashed asset, /v2 reads and comment writes. Then SIGTERM while 100 clients keep going. Every acknowledged
 * write (201 with an id) must be in the upstream's database afterwards. Numbers go to
 * test-artifacts/hardening/load.json and the test output.
 */

const DURATION_S = Number(process.env.HARDENING_LOAD_SECONDS ?? 15);
const CONNECTIONS = 100;
const GRACE_MS = 10_000;

let stack: Stack;
let session: Session;
let patientId: string;
let asset: string;
const acknowledged = new Set<string>();
const report: Record<string, unknown> = {};

function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}
function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
const memory = () => {
  const gatewayPid = stack.child.pid!;
  const upstreamPid = childPids(gatewayPid)[0];
  return { gatewayMb: Math.round(rssKb(gatewayPid) / 1024), upstreamMb: upstreamPid ? Math.round(rssKb(upstreamPid) / 1024) : null };
};

/**
 * The highest resident size of each process while `run` runs (sampled every 200 ms). One sample at an instant says
 * more about where V8's collector happened to be than about a leak (seen: 349 MB after the first half, 505 MB one
 * moment after the second, where other runs had 330-350 both times); the peaks of two equal halves compare like with like.
 */
async function peakMemory<T>(run: () => Promise<T>): Promise<{ result: T; peak: ReturnType<typeof memory> }> {
  const peak = memory();
  const sample = () => {
    const now = memory();
    peak.gatewayMb = Math.max(peak.gatewayMb, now.gatewayMb);
    if (now.upstreamMb !== null) peak.upstreamMb = Math.max(peak.upstreamMb ?? 0, now.upstreamMb);
  };
  const timer = setInterval(sample, 200);
  try {
    const result = await run();
    sample();
    return { result, peak };
  } finally {
    clearInterval(timer);
  }
}

beforeAll(async () => {
  stack = await startStack({ SHUTDOWN_GRACE_MS: String(GRACE_MS), LOG_LEVEL: 'warn' });
  session = new Session(stack.url);
  await session.login('coach@example.org', DEMO_PASSWORD);
  const patients = (await (await session.fetch(`/v2/patients?filter=${encodeURIComponent(JSON.stringify({ limit: 1 }))}`)).json()) as { id: string }[];
  patientId = patients[0].id;
  const page = await (await session.fetch('/login')).text();
  asset = /src="(\/assets\/[^"]+\.js)"/.exec(page)?.[1] ?? '/favicon.svg';
}, 60_000);

afterAll(async () => {
  await stack.stop();
  mkdirSync(join(REPO_ROOT, 'test-artifacts/hardening'), { recursive: true });
  writeFileSync(join(REPO_ROOT, 'test-artifacts/hardening/load.json'), `${JSON.stringify(report, null, 2)}\n`);
});

let writeCounter = 0;
const commentBody = () => JSON.stringify({ patientId, text: `Lasttest ${process.pid}-${++writeCounter}` });

test(
  `${CONNECTIONS} connections for ${DURATION_S} s of pages, assets, reads and writes: no errors, nothing lost`,
  async () => {
    const headers = {
      Cookie: [...session.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      Authorization: `Bearer ${session.token}`,
      'Accept-Encoding': 'br, gzip',
    };
    const writeHeaders = { ...headers, 'Content-Type': 'application/json', 'X-XSRF-TOKEN': session.xsrf };
    const listFilter = encodeURIComponent(JSON.stringify({ where: { patientId }, order: 'createdAt DESC', limit: 10 }));
    // Two halves of equal traffic: memory may grow in the first (V8's heap and zlib's buffers settle at a size that
    // depends on the load), a leak grows again in the second.
    const load = () =>
      autocannon({
        url: stack.url,
        connections: CONNECTIONS,
        duration: DURATION_S / 2,
        timeout: 10,
        requests: [
          { method: 'GET', path: '/login', headers },
          { method: 'GET', path: asset, headers },
          { method: 'GET', path: `/v2/patients?filter=${encodeURIComponent(JSON.stringify({ limit: 20 }))}`, headers },
          { method: 'GET', path: `/v2/comments?filter=${listFilter}`, headers },
          {
            method: 'POST',
            path: '/v2/comments',
            headers: writeHeaders,
            setupRequest: (req) => ({ ...req, body: commentBody() }),
            onResponse: (status, body) => {
              if (status === 201) acknowledged.add((JSON.parse(body) as { id: string }).id);
            },
          },
          { method: 'GET', path: '/v2/auth/me', headers },
        ],
      });
    const before = memory();
    const { result: first, peak: firstPeak } = await peakMemory(load);
    const { result: second, peak: secondPeak } = await peakMemory(load);
    const result = {
      requests: { total: first.requests.total + second.requests.total, average: (first.requests.average + second.requests.average) / 2 },
      latency: {
        p50: Math.max(first.latency.p50, second.latency.p50),
        p99: Math.max(first.latency.p99, second.latency.p99),
        max: Math.max(first.latency.max, second.latency.max),
      },
      errors: first.errors + second.errors,
      timeouts: first.timeouts + second.timeouts,
      non2xx: first.non2xx + second.non2xx,
      '1xx': first['1xx'] + second['1xx'],
      '2xx': first['2xx'] + second['2xx'],
      '3xx': first['3xx'] + second['3xx'],
      '4xx': first['4xx'] + second['4xx'],
      '5xx': first['5xx'] + second['5xx'],
    };
    const statusCounts = { '1xx': result['1xx'], '2xx': result['2xx'], '3xx': result['3xx'], '4xx': result['4xx'], '5xx': result['5xx'] };
    report.load = {
      durationSeconds: DURATION_S,
      connections: CONNECTIONS,
      requests: result.requests.total,
      requestsPerSecond: Math.round(result.requests.average),
      latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
      errors: result.errors,
      timeouts: result.timeouts,
      non2xx: result.non2xx,
      statusCounts,
      acknowledgedWrites: acknowledged.size,
      rssBefore: before,
      rssPeakFirstHalf: firstPeak,
      rssPeakSecondHalf: secondPeak,
    };
    console.log('load', JSON.stringify(report.load));

    expect(result.errors).toBe(0);
    expect(result.timeouts).toBe(0);
    expect(result.non2xx).toBe(0);
    expect(acknowledged.size).toBeGreaterThan(100);
    // Memory stays bounded (numbers in the report): the second half of the traffic peaks little above the first.
    expect(secondPeak.gatewayMb).toBeLessThan(firstPeak.gatewayMb + 80);
    expect(secondPeak.gatewayMb).toBeLessThan(600);
  },
  (DURATION_S + 60) * 1000,
);

type Outcome = 'ok' | 'refused' | 'failed';

/** One request on a keep-alive agent; 'refused' = the connection was never accepted (the listener is closed). */
function one(agent: Agent, method: string, path: string, body?: string): Promise<{ outcome: Outcome; status: number; detail?: string; id?: string }> {
  return new Promise((resolve) => {
    const req = httpRequest(`${stack.url}${path}`, {
      agent,
      method,
      headers: {
        Cookie: [...session.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        Authorization: `Bearer ${session.token}`,
        ...(body ? { 'Content-Type': 'application/json', 'X-XSRF-TOKEN': session.xsrf } : {}),
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        const ok = res.complete && (res.statusCode ?? 500) < 500;
        const id = res.statusCode === 201 ? (JSON.parse(text) as { id: string }).id : undefined;
        resolve({ outcome: ok ? 'ok' : 'failed', status: res.statusCode ?? 0, detail: ok ? undefined : text.slice(0, 200), id });
      });
      res.on('error', (e) => resolve({ outcome: 'failed', status: res.statusCode ?? 0, detail: e.message }));
    });
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({
        outcome: error.code === 'ECONNREFUSED' ? 'refused' : 'failed',
        status: 0,
        detail: `${error.code ?? error.message} ${method} reused=${req.reusedSocket}`,
      }),
    );
    req.end(body);
  });
}

test('SIGTERM during load: every request that was accepted is answered, exit 0 within the grace period, writes kept', async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const outcomes: { outcome: Outcome; status: number; detail?: string }[] = [];
  let signalledAt = 0;
  let stop = false;
  const listPath = `/v2/patients?filter=${encodeURIComponent(JSON.stringify({ limit: 20 }))}`;
  const worker = async (n: number) => {
    for (let i = 0; !stop; i++) {
      const kind = (n + i) % 3;
      const answer = kind === 0 ? await one(agent, 'POST', '/v2/comments', commentBody()) : await one(agent, 'GET', kind === 1 ? listPath : '/login');
      if (answer.id) acknowledged.add(answer.id);
      outcomes.push(answer);
      // Once the listener is closed, nothing new can be sent; the clients stop as a load balancer would.
      if (answer.outcome === 'refused') return;
    }
  };
  const workers = Array.from({ length: CONNECTIONS }, (_, n) => worker(n));
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const servedBefore = outcomes.length;
  signalledAt = Date.now();
  stack.child.kill('SIGTERM');
  const exit = await stack.exited;
  const exitMs = Date.now() - signalledAt;
  stop = true;
  await Promise.all(workers);
  agent.destroy();

  const failed = outcomes.filter((o) => o.outcome === 'failed');
  report.shutdown = {
    exit,
    exitMs,
    graceMs: GRACE_MS,
    answeredBeforeSignal: servedBefore,
    answered: outcomes.filter((o) => o.outcome === 'ok').length,
    refusedAfterClose: outcomes.filter((o) => o.outcome === 'refused').length,
    failed: failed.length,
    failedSamples: failed.slice(0, 5),
  };
  console.log('shutdown', JSON.stringify(report.shutdown));
  expect(exit).toEqual({ code: 0, signal: null });
  expect(exitMs).toBeLessThan(GRACE_MS);
  expect(servedBefore).toBeGreaterThan(100);
  expect(failed).toEqual([]);

  // Every write the gateway acknowledged, during the load and during the shutdown, is in the database.
  const storage = await openStorage({ dataDir: stack.dataDir, databaseUrl: '' });
  try {
    const stored = new Set<string>();
    const ids = [...acknowledged];
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await storage.db
        .selectFrom('comments')
        .select('id')
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
      for (const row of rows) stored.add(row.id);
    }
    const lost = ids.filter((id) => !stored.has(id));
    report.writes = { acknowledged: ids.length, stored: stored.size, lost: lost.length };
    console.log('writes', JSON.stringify(report.writes));
    expect(lost).toEqual([]);
  } finally {
    await storage.close();
  }
}, 60_000);

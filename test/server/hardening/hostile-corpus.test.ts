import { afterAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { join } from 'node:path';
import { REPO_ROOT, startFakeUpstream } from '../../helpers/gateway-fixtures.ts';
import type { FakeUpstream } from '../../helpers/gateway-fixtures.ts';
import { spawnGateway } from '../../helpers/gateway-process.ts';
import type { GatewayProcess } from '../../helpers/gateway-process.ts';
import { HEADER_SETS, HOP_MARKER, buildCorpus } from '../../helpers/hostile-requests.ts';
import { exchange, pool } from '../../helpers/raw-http.ts';
import type { CorpusCase, Xsrf } from '../../helpers/hostile-requests.ts';
import { XSRF_SECRET, startStack } from '../../helpers/gateway-stack.ts';
import { xsrfPairOf } from '../../helpers/xsrf-pair.ts';

/*
 * The generated hostile-request corpus (test/helpers/hostile-requests.ts) against the real gateway process, once in
 * front of a recording upstream and once in front of the built-in one. After every request the same process must
 * still answer /healthz; no answer may be a 5xx; the recording upstream must never see a hop-by-hop field, a field
 * the client named in Connection, a forged forwarding field or the gateway's xsrf-sid cookie.
 *
 * Failures are collected, not thrown at the first: the test names every case that failed (and restarts a gateway
 * that died, so each case is judged on its own).
 */

const CONCURRENCY = 12;
const ASSET = (() => {
  try {
    return (JSON.parse(readFileSync(join(REPO_ROOT, 'dist/build-manifest.json'), 'utf8')) as { entry: string }).entry;
  } catch {
    return '/assets/main-MISSING0.js';
  }
})();

interface Target {
  port: number;
  alive: () => boolean;
  restart: () => Promise<void>;
  stop: () => Promise<void>;
}

const healthAgent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
afterAll(() => healthAgent.destroy());

function healthz(port: number): Promise<number> {
  return new Promise((resolve) => {
    const req = get({ host: '127.0.0.1', port, path: '/healthz', agent: healthAgent, timeout: 5000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

async function xsrfOf(port: number): Promise<Xsrf> {
  return xsrfPairOf((await fetch(`http://127.0.0.1:${port}/login`)).headers.getSetCookie());
}

async function runCorpus(kind: string, target: Target): Promise<{ cases: CorpusCase[]; failures: string[] }> {
  const cases = buildCorpus(await xsrfOf(target.port), ASSET);
  const failures: string[] = [];
  let restarting: Promise<void> | undefined;
  await pool(cases, CONCURRENCY, async (c) => {
    await restarting;
    const port = target.port;
    const answer = await exchange(port, c.bytes, c.methods);
    const problems: string[] = [];
    if (answer.responses.length === 0) problems.push(`no answer (${answer.outcome})`);
    if (answer.outcome === 'timeout') problems.push('the gateway stopped answering on this connection');
    for (const response of answer.responses) if (response.status >= 500 || response.status < 100) problems.push(`answered ${response.status}`);
    const health = target.alive() ? await healthz(port) : 0;
    if (health !== 200) problems.push(`/healthz afterwards: ${health || 'process gone'}`);
    if (problems.length) failures.push(`${c.id} ${c.label.slice(0, 160)}: ${problems.join('; ')}`);
    if (health !== 200 && !target.alive()) {
      restarting ??= target.restart().finally(() => (restarting = undefined));
      await restarting;
    }
  });
  const single = cases.filter((c) => c.methods.length === 1).length;
  console.log(
    `hostile corpus (${kind}): ${cases.length} cases ran (${single} single requests, ${cases.length - single} pipelined pairs), ${failures.length} failed`,
  );
  return { cases, failures };
}

const HOP_BY_HOP = ['keep-alive', 'proxy-connection', 'te', 'trailer', 'upgrade', 'http2-settings', 'proxy-authorization', HOP_MARKER];
const FORGED = ['forwarded', 'x-real-ip', 'x-forwarded-port'];

describe('the hostile-request corpus', () => {
  test('in front of a recording upstream: the gateway survives every case and forwards nothing hop-by-hop', async () => {
    const upstream: FakeUpstream = await startFakeUpstream();
    const env = { UPSTREAM_URL: upstream.url, XSRF_SECRET, LOG_LEVEL: 'fatal' };
    let gateway: GatewayProcess = await spawnGateway(env);
    const target: Target = {
      get port() {
        return gateway.port;
      },
      alive: () => gateway.child.exitCode === null && gateway.child.signalCode === null,
      restart: async () => {
        gateway = await spawnGateway(env);
      },
      stop: async () => {
        gateway.child.kill('SIGTERM');
        await gateway.exited;
      },
    };
    try {
      const { cases, failures } = await runCorpus('recording upstream', target);
      const byId = new Map(cases.map((c) => [c.id, c]));

      const leaks: string[] = [];
      const seen = new Set<string>();
      for (const received of upstream.requests) {
        const id = String(received.headers['x-corpus-case'] ?? '');
        const label = `${id} ${byId.get(id)?.label.slice(0, 120) ?? received.url}`;
        seen.add(id);
        // Every request the upstream saw is one the corpus sent: nothing smuggled or split off a body.
        if (!byId.has(id.replace(/n$/, ''))) leaks.push(`${label}: the upstream received a request the corpus did not send`);
        const body = byId.get(id)?.headerSet.upstreamBody;
        if (body !== undefined && received.body !== body) leaks.push(`${label}: upstream received body ${JSON.stringify(received.body.slice(0, 40))}`);
        for (const name of [...HOP_BY_HOP, ...FORGED]) if (name in received.headers) leaks.push(`${label}: upstream received ${name}`);
        const connection = received.headers.connection ?? 'keep-alive';
        if (!/^(keep-alive|close)$/i.test(connection)) leaks.push(`${label}: upstream received Connection: ${connection}`);
        const te = received.headers['transfer-encoding'];
        if (te !== undefined && te !== 'chunked') leaks.push(`${label}: upstream received Transfer-Encoding: ${te}`);
        if (String(received.headers.cookie ?? '').includes('xsrf-sid')) leaks.push(`${label}: upstream received the xsrf-sid cookie`);
        if (byId.get(id)?.headerSet.name === 'Cookie named in Connection' && received.headers.cookie)
          leaks.push(`${label}: upstream received a Cookie named in Connection`);
        if (!/^(::ffff:)?127\.0\.0\.1$/.test(String(received.headers['x-forwarded-for'])))
          leaks.push(`${label}: X-Forwarded-For ${received.headers['x-forwarded-for']}`);
        if (received.headers['x-forwarded-host'] !== 'localhost') leaks.push(`${label}: X-Forwarded-Host ${received.headers['x-forwarded-host']}`);
        if (received.headers['x-forwarded-proto'] !== 'http') leaks.push(`${label}: X-Forwarded-Proto ${received.headers['x-forwarded-proto']}`);
      }
      // Not vacuous: every header set that a valid request can carry did reach the upstream, and was checked there.
      const unforwarded = HEADER_SETS.filter((set) => set.reachesUpstream && !cases.some((c) => c.headerSet === set && seen.has(c.id))).map((set) => set.name);
      console.log(`recording upstream received ${upstream.requests.length} requests`);

      expect(failures, failures.slice(0, 40).join('\n')).toEqual([]);
      expect(leaks, leaks.slice(0, 40).join('\n')).toEqual([]);
      expect(unforwarded).toEqual([]);
    } finally {
      await target.stop();
      await upstream.close();
    }
  }, 240_000);

  test('in front of the built-in upstream: the gateway survives every case and never answers 5xx', async () => {
    let stack = await startStack({ LOG_LEVEL: 'fatal' });
    const target: Target = {
      get port() {
        return stack.port;
      },
      alive: () => stack.child.exitCode === null && stack.child.signalCode === null,
      restart: async () => {
        await stack.stop();
        stack = await startStack({ LOG_LEVEL: 'fatal' });
      },
      stop: async () => {
        await stack.stop();
      },
    };
    try {
      const { failures } = await runCorpus('built-in upstream', target);
      expect(failures, failures.slice(0, 40).join('\n')).toEqual([]);
    } finally {
      await target.stop();
    }
  }, 240_000);
});

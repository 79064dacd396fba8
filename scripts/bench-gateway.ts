import { processCpuMs } from './process-cpu.ts';
import autocannon from 'autocannon';
import { startServer } from '../test/helpers/e2e-server.ts';
import { row, within } from './bench-report.ts';
import { GATEWAY_SHARE_OF_UPSTREAM } from './budgets.ts';

/**
 * What the gateway costs on a small authenticated GET: the same call straight to the upstream and through the
 * gateway, in turn (never at once: they share the machine's cores), several rounds; medians of the per-round
 * ratios, so that load from elsewhere on the machine hits both sides of a ratio alike. Besides requests/s, the
 * CPU time each process spent per request (scripts/process-cpu.ts), which other load on the machine barely moves.
 */

const PATH = '/v2/auth/me';

interface Run {
  rps: number;
  p50: number;
  p99: number;
  /** CPU milliseconds per request of each measured process, in the order given. */
  cpu: number[];
}

async function run(url: string, headers: Record<string, string>, pids: number[], seconds: number): Promise<Run> {
  const before = pids.map(processCpuMs);
  const result = await autocannon({ url, connections: 10, duration: seconds, headers });
  const after = pids.map(processCpuMs);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers and ${result.errors} errors during the run`);
  const requests = result.requests.total;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpu: after.map((end, i) => (end - before[i]) / requests) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
const us = (ms: number) => `${Math.round(ms * 1000)} µs`;

export interface GatewayComparison {
  share: number;
  direct: { rps: number; cpu: number };
  proxied: { rps: number; gatewayCpu: number; upstreamCpu: number };
  shares: number[];
}

/** The upstream direct and a gateway in front of it, `rounds` interleaved runs of `seconds` each. */
export async function compareGateway(
  upstream: { url: string; pid: number },
  gateway: { baseUrl: string; pid: number },
  token: string,
  rounds = 5,
  seconds = 4,
): Promise<GatewayComparison> {
  const headers = { authorization: `Bearer ${token}` };
  // Warm both (JIT, pooled connections) before anything counts.
  await run(`${gateway.baseUrl}${PATH}`, headers, [], 1);
  const direct: Run[] = [];
  const proxied: Run[] = [];
  for (let i = 0; i < rounds; i++) {
    direct.push(await run(`${upstream.url}${PATH}`, headers, [upstream.pid], seconds));
    proxied.push(await run(`${gateway.baseUrl}${PATH}`, headers, [gateway.pid, upstream.pid], seconds));
  }
  const shares = proxied.map((p, i) => p.rps / direct[i].rps);
  return {
    share: median(shares),
    direct: { rps: median(direct.map((r) => r.rps)), cpu: median(direct.map((r) => r.cpu[0])) },
    proxied: { rps: median(proxied.map((r) => r.rps)), gatewayCpu: median(proxied.map((r) => r.cpu[0])), upstreamCpu: median(proxied.map((r) => r.cpu[1])) },
    shares,
  };
}

/**
 * For `npm run bench`: a gateway of its own in front of the bench's upstream, logging every request as production
 * does (LOG_LEVEL=info; the lines go to /dev/null, so that reading them does not count), compared side by side.
 */
export async function gatewayCost(upstream: { url: string; pid: number }, dataDir: string, token: string) {
  const gateway = await startServer({ dataDir, env: { UPSTREAM_URL: upstream.url, LOG_LEVEL: 'info' }, discardStdout: true });
  try {
    const result = await compareGateway(upstream, gateway, token);
    const note = `median of ${result.shares.length} interleaved runs, autocannon 10 connections`;
    row(`GET ${PATH} direct to the upstream`, `${Math.round(result.direct.rps)} req/s`, `upstream CPU ${us(result.direct.cpu)} per request; ${note}`);
    row(
      `GET ${PATH} through the gateway`,
      `${Math.round(result.proxied.rps)} req/s`,
      `gateway CPU ${us(result.proxied.gatewayCpu)} + upstream CPU ${us(result.proxied.upstreamCpu)} per request`,
    );
    row(
      'Gateway / upstream direct (small GET req/s)',
      result.share.toFixed(2),
      `budget >= ${GATEWAY_SHARE_OF_UPSTREAM}; rounds: ${result.shares.map((s) => s.toFixed(2)).join(', ')}`,
    );
    within('small GET req/s, gateway / upstream direct', Number(result.share.toFixed(2)), GATEWAY_SHARE_OF_UPSTREAM, true);
  } finally {
    await gateway.stop();
  }
}

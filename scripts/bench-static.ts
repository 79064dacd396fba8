import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { ROOT, freePort } from '../test/helpers/e2e-server.ts';

/**
 * Requests per second for one precompressed asset (the main script, brotli): the gateway against Debian's
 * nginx on the same machine serving the very same .br file. nginx gets one worker, as the gateway is one
 * process (BENCH_NGINX_WORKERS=auto gives it one per core), and logs every request to a file.
 */

export const NGINX = '/usr/sbin/nginx';

export interface CannonResult {
  rps: number;
  p50: number;
  p99: number;
}

export async function cannon(url: string, headers: Record<string, string> = {}, duration = 5): Promise<CannonResult> {
  const result = await autocannon({ url, connections: 10, duration, headers });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers and ${result.errors} errors during the run`);
  }
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/** The entry script's URL path as index.html names it. */
export function mainScriptPath(): string {
  const html = readFileSync(join(ROOT, 'dist', 'public', 'index.html'), 'utf8');
  const asset = /<script[^>]+src="([^"]+)"/.exec(html)?.[1];
  if (!asset) throw new Error('no script in dist/public/index.html');
  return asset;
}

function waitForExit(child: ChildProcess): Promise<void> {
  return new Promise((done) => (child.exitCode !== null || child.signalCode !== null ? done() : child.once('exit', () => done())));
}

/** Starts nginx serving `assetPath` from dist/public as its .br file with the gateway's headers; null when nginx is missing. */
export async function startNginx(assetPath: string): Promise<{ url: string; stop: () => Promise<void> } | null> {
  if (!existsSync(NGINX)) return null;
  const dir = mkdtempSync(join(tmpdir(), 'bench-nginx-'));
  const port = await freePort();
  const file = join(ROOT, 'dist', 'public', `${assetPath}.br`);
  const conf = `
daemon off;
master_process off;
worker_processes ${process.env.BENCH_NGINX_WORKERS ?? 1};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log ${dir}/access.log combined buffer=64k;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  server {
    listen 127.0.0.1:${port};
    location = ${assetPath} {
      default_type "text/javascript; charset=utf-8";
      add_header Content-Encoding br;
      add_header Cache-Control "public, max-age=31536000, immutable";
      add_header Vary Accept-Encoding;
      alias ${file};
    }
  }
}
`;
  writeFileSync(join(dir, 'nginx.conf'), conf);
  const child = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const url = `http://127.0.0.1:${port}${assetPath}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${errors}`);
    try {
      if ((await fetch(url)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`nginx did not answer within 10 s: ${errors}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await waitForExit(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface StaticComparison {
  gateway: CannonResult;
  nginx: CannonResult | null;
  ratio: number | null;
}

/** Gateway and nginx in turn (never at once: they would share the two cores), `rounds` runs of `seconds` each; medians. */
export async function compareStatic(gatewayOrigin: string, rounds = 3, seconds = 5): Promise<StaticComparison> {
  const asset = mainScriptPath();
  const headers = { 'accept-encoding': 'br' };
  const nginx = await startNginx(asset);
  const gatewayRuns: CannonResult[] = [];
  const nginxRuns: CannonResult[] = [];
  try {
    for (let i = 0; i < rounds; i++) {
      gatewayRuns.push(await cannon(`${gatewayOrigin}${asset}`, headers, seconds));
      if (nginx) nginxRuns.push(await cannon(nginx.url, headers, seconds));
    }
  } finally {
    await nginx?.stop();
  }
  const mid = (runs: CannonResult[]) => [...runs].sort((a, b) => a.rps - b.rps)[runs.length >> 1];
  const gateway = mid(gatewayRuns);
  const nginxResult = nginx ? mid(nginxRuns) : null;
  return { gateway, nginx: nginxResult, ratio: nginxResult ? gateway.rps / nginxResult.rps : null };
}

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/helpers/e2e-chromium.ts';
import { freePort } from '../test/helpers/e2e-server.ts';
import { NGINX, compareStatic } from './bench-static.ts';
import { row, within } from './bench-report.ts';
import { STATIC_SHARE_OF_NGINX } from './budgets.ts';

/* What the server side costs (scripts/bench.ts): Lighthouse's scores of the login screen and static files from the
 * gateway next to nginx (the gateway's cost per API call: bench-gateway.ts). */

/** Lighthouse drives its own tab over the DevTools port of a Chromium started here with the usual flags. */
export async function lighthouseScores(origin: string) {
  const port = await freePort();
  const profile = mkdtempSync(join(tmpdir(), 'bench-lh-'));
  const chrome = spawn(CHROMIUM_PATH, [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, 'about:blank'], { stdio: 'ignore' });
  try {
    const deadline = Date.now() + 20_000;
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) break;
      } catch {
        if (Date.now() > deadline) throw new Error('Chromium did not open its DevTools port');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const { default: lighthouse } = await import('lighthouse');
    const result = await lighthouse(`${origin}/login`, {
      port,
      logLevel: 'error',
      output: 'json',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
    });
    if (!result) throw new Error('Lighthouse returned nothing');
    const score = (id: string) => Math.round((result.lhr.categories[id]?.score ?? 0) * 100);
    row(
      'Lighthouse mobile /login: performance / accessibility / best practices',
      `${score('performance')} / ${score('accessibility')} / ${score('best-practices')}`,
      `FCP ${result.lhr.audits['first-contentful-paint']?.displayValue ?? '?'}, LCP ${result.lhr.audits['largest-contentful-paint']?.displayValue ?? '?'}`,
    );
  } finally {
    chrome.kill('SIGTERM');
    await new Promise((r) => chrome.once('exit', r));
    rmSync(profile, { recursive: true, force: true });
  }
}

export async function staticAssets(gatewayUrl: string) {
  const { gateway, nginx, ratio } = await compareStatic(gatewayUrl);
  row(
    'Static asset (main script, brotli) through the gateway',
    `${Math.round(gateway.rps)} req/s`,
    `p50 ${gateway.p50} ms, p99 ${gateway.p99} ms; median of 3 runs`,
  );
  if (nginx && ratio !== null) {
    row(
      `The same .br file from nginx (worker_processes ${process.env.BENCH_NGINX_WORKERS ?? 1}, access log on)`,
      `${Math.round(nginx.rps)} req/s`,
      `p50 ${nginx.p50} ms, p99 ${nginx.p99} ms; median of 3 runs`,
    );
    row('Gateway / nginx (static asset req/s)', `${(ratio * 100).toFixed(0)} %`, `budget >= ${STATIC_SHARE_OF_NGINX * 100} %`);
    within('static asset req/s, gateway / nginx', Number(ratio.toFixed(2)), STATIC_SHARE_OF_NGINX, true);
  } else {
    row('The same .br file from nginx', 'not measured', `nginx is not installed (${NGINX} missing): apt-get install nginx`);
  }
}

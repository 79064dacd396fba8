import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e-chromium.ts';
import { ROOT, startServer } from './e2e-server.ts';
import { LB3_MAPPING, startLb3Upstream } from './lb3-upstream/app.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the gateway under test, for example http://127.0.0.1:41234. */
    e2eBaseUrl: string;
    /** Data folder of the built-in upstream (outbox/*.eml holds the mails). */
    e2eDataDir: string;
    /** Playwright endpoint of the one Chromium the whole suite shares. */
    e2eBrowserEndpoint: string;
    /** Origin of the second gateway, whose UPSTREAM_URL is the LoopBack 3 test upstream (UPSTREAM_MAPPING its mapping.json). */
    e2eLb3BaseUrl: string;
    /** The LoopBack 3 test upstream itself (its /__test__/outbox holds the mails). */
    e2eLb3Url: string;
  }
}

/**
 * Two gateways and one Chromium for the whole e2e project: one gateway with its forked built-in upstream, one
 * in front of the LoopBack 3 test upstream (test/helpers/lb3-upstream, which runs in this process) with its field mapping.
 * Starting them per file would cost seconds each on a 2-core CI machine. Every journey gets a fresh context.
 */
export default async function setup(project: TestProject) {
  const artifacts = join(ROOT, 'test-artifacts', 'e2e');
  rmSync(artifacts, { recursive: true, force: true });
  mkdirSync(artifacts, { recursive: true });
  // The gateway's (and its upstream's) warnings and errors, to read beside a failed journey's screenshots.
  const lb3 = await startLb3Upstream();
  const started = await Promise.allSettled([
    startServer({ logFile: join(artifacts, 'gateway.log') }),
    startServer({ logFile: join(artifacts, 'gateway-lb3.log'), env: { UPSTREAM_URL: lb3.url, UPSTREAM_MAPPING: LB3_MAPPING } }),
    chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true }),
  ] as const);
  const [server, lb3Server, browserServer] = started;
  const stopAll = async () => {
    if (browserServer.status === 'fulfilled') await browserServer.value.close();
    if (server.status === 'fulfilled') await server.value.stop();
    if (lb3Server.status === 'fulfilled') await lb3Server.value.stop();
    await lb3.stop();
  };
  if (server.status === 'rejected' || lb3Server.status === 'rejected' || browserServer.status === 'rejected') {
    await stopAll();
    throw started.map((result) => (result.status === 'rejected' ? result.reason : null)).find(Boolean);
  }
  project.provide('e2eBaseUrl', server.value.baseUrl);
  project.provide('e2eDataDir', server.value.dataDir);
  project.provide('e2eBrowserEndpoint', browserServer.value.wsEndpoint());
  project.provide('e2eLb3BaseUrl', lb3Server.value.baseUrl);
  project.provide('e2eLb3Url', lb3.url);
  return stopAll;
}

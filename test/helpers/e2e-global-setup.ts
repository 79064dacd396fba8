import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e-chromium.ts';
import { ROOT, startServer } from './e2e-server.ts';
import { LB3_MAPPING, startLb3Upstream } from './lb3-upstream/app.ts';

/** The gateways one test worker's journeys run against; each worker has its own, so files never share data. */
export interface E2eStack {
  /** Origin of the gateway in front of the built-in upstream, for example http://127.0.0.1:41234. */
  baseUrl: string;
  /** Data folder of that built-in upstream (outbox/*.eml holds the mails). */
  dataDir: string;
  /** Origin of the second gateway, whose UPSTREAM_URL is the LoopBack 3 test upstream (UPSTREAM_MAPPING its mapping.json). */
  lb3BaseUrl: string;
  /** The LoopBack 3 test upstream itself (its /__test__/outbox holds the mails). */
  lb3Url: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** One stack per test worker (VITEST_POOL_ID 1 takes the first). */
    e2eStacks: E2eStack[];
    /** Playwright endpoint of the one Chromium the whole suite shares. */
    e2eBrowserEndpoint: string;
  }
}

type Stop = () => Promise<void>;

/** The built-in gateway and the LoopBack pair of one worker; `stops` gets whatever started, also when a part fails. */
async function startStack(artifacts: string, n: number, stops: Stop[]): Promise<E2eStack> {
  const lb3 = await startLb3Upstream();
  stops.push(() => lb3.stop());
  const [server, lb3Server] = await Promise.allSettled([
    startServer({ logFile: join(artifacts, `gateway-${n}.log`) }),
    startServer({ logFile: join(artifacts, `gateway-lb3-${n}.log`), env: { UPSTREAM_URL: lb3.url, UPSTREAM_MAPPING: LB3_MAPPING } }),
  ]);
  for (const started of [server, lb3Server]) if (started.status === 'fulfilled') stops.push(() => started.value.stop());
  if (server.status === 'rejected') throw server.reason;
  if (lb3Server.status === 'rejected') throw lb3Server.reason;
  return { baseUrl: server.value.baseUrl, dataDir: server.value.dataDir, lb3BaseUrl: lb3Server.value.baseUrl, lb3Url: lb3.url };
}

/**
 * One Chromium for the whole project and, for each test worker, a gateway with its forked built-in upstream and one in
 * front of the LoopBack 3 test upstream (test/helpers/lb3-upstream, which runs in this process) with its field mapping.
 * Files run side by side, each against its worker's stack: a journey that edits a patient cannot change what a
 * journey in another file reads, and the waits of one (a slow line, an idle timeout) leave the cores to another.
 * Starting a stack per file would cost seconds each on a 2-core machine. Every journey gets a fresh context.
 */
export default async function setup(project: TestProject) {
  const artifacts = join(ROOT, 'test-artifacts', 'e2e');
  rmSync(artifacts, { recursive: true, force: true });
  mkdirSync(artifacts, { recursive: true });
  const workers = Math.max(1, Number(project.config.maxWorkers) || 1);
  const stops: Stop[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop();
  };
  const started = await Promise.allSettled([
    chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true }).then((browser) => {
      stops.push(() => browser.close());
      return browser;
    }),
    ...Array.from({ length: workers }, (_, i) => startStack(artifacts, i + 1, stops)),
  ]);
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  const [browser, ...stacks] = started.map((result) => (result as PromiseFulfilledResult<unknown>).value);
  project.provide('e2eBrowserEndpoint', (browser as { wsEndpoint(): string }).wsEndpoint());
  project.provide('e2eStacks', stacks as E2eStack[]);
  return stopAll;
}

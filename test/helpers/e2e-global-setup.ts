import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e-chromium.ts';
import { ROOT, startServer } from './e2e-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the gateway under test, for example http://127.0.0.1:41234. */
    e2eBaseUrl: string;
    /** Data folder of the built-in upstream (outbox/*.eml holds the mails). */
    e2eDataDir: string;
    /** Playwright endpoint of the one Chromium the whole suite shares. */
    e2eBrowserEndpoint: string;
  }
}

/**
 * One gateway (with its forked built-in upstream) and one Chromium for the whole e2e project: starting
 * them per file would cost seconds each on a 2-core CI machine. Every journey gets a fresh browser context.
 */
export default async function setup(project: TestProject) {
  const artifacts = join(ROOT, 'test-artifacts', 'e2e');
  rmSync(artifacts, { recursive: true, force: true });
  mkdirSync(artifacts, { recursive: true });
  // The gateway's (and its upstream's) warnings and errors, to read beside a failed journey's screenshots.
  const server = await startServer({ logFile: join(artifacts, 'gateway.log') });
  let browserServer;
  try {
    browserServer = await chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  } catch (error) {
    await server.stop();
    throw error;
  }
  project.provide('e2eBaseUrl', server.baseUrl);
  project.provide('e2eDataDir', server.dataDir);
  project.provide('e2eBrowserEndpoint', browserServer.wsEndpoint());
  return async () => {
    await browserServer.close();
    await server.stop();
  };
}

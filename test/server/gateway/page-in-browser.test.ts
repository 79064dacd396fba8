import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { build } from '../../../scripts/build.ts';
import { createApp } from '../../../server/app.ts';
import { makeBuildProject } from '../../helpers/gateway-build-fixture.ts';
import { listen, startFakeUpstream, testConfig } from '../../helpers/gateway-fixtures.ts';
import type { FakeUpstream } from '../../helpers/gateway-fixtures.ts';

const CHROMIUM = '/usr/bin/chromium';

// A built page, served by the gateway with its real CSP, in a real browser: nothing is blocked and a lazy
// area arrives with its stylesheet applied.
describe.skipIf(!existsSync(CHROMIUM))('the built page in Chromium', () => {
  let project: { root: string; cleanup: () => void };
  let upstream: FakeUpstream;
  let served: Awaited<ReturnType<typeof listen>>;
  let browser: Browser;

  beforeAll(async () => {
    project = makeBuildProject();
    await build({ root: project.root });
    upstream = await startFakeUpstream();
    served = await listen(createApp(testConfig({ UPSTREAM_URL: upstream.url, APP_TITLE: 'Nachsorge Nord' }), { publicDir: join(project.root, 'dist/public') }));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await served?.close();
    await upstream?.close();
    project?.cleanup();
  });

  test('renders under the CSP without violations, with the instance title and the lazy area styled', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${served.url}/login`);
    await page.locator('.area').waitFor();
    expect(await page.title()).toBe('Nachsorge Nord');
    expect(await page.locator('.entry').textContent()).toBe('1shared-module-text');
    expect(await page.locator('.area').evaluate((el) => getComputedStyle(el).paddingTop)).toBe('16px');
    expect(await page.evaluate(() => document.cookie)).toMatch(/XSRF-TOKEN=/);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});

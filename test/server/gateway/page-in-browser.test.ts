import { describe, expect } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { createApp } from '../../../server/app.ts';
import { builtProjectTest } from '../../helpers/gateway-build-fixture.ts';
import { listen, startFakeUpstream, testConfig } from '../../helpers/gateway-fixtures.ts';
import type { FakeUpstream } from '../../helpers/gateway-fixtures.ts';

const CHROMIUM = '/usr/bin/chromium';

const test = builtProjectTest
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixtures a fixture needs from its first parameter
  .extend('upstream', { scope: 'file' }, async ({}, { onCleanup }): Promise<FakeUpstream> => {
    const upstream = await startFakeUpstream();
    onCleanup(() => upstream.close());
    return upstream;
  })
  .extend('served', { scope: 'file' }, async ({ project, manifest: _, upstream }, { onCleanup }) => {
    const served = await listen(
      createApp(testConfig({ UPSTREAM_URL: upstream.url, APP_TITLE: 'Nachsorge Nord' }), { publicDir: join(project.root, 'dist/public') }),
    );
    onCleanup(() => served.close());
    return served;
  })
  // biome-ignore lint/correctness/noEmptyPattern: see above
  .extend('browser', { scope: 'file' }, async ({}, { onCleanup }): Promise<Browser> => {
    const browser = await chromium.launch({
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
    onCleanup(() => browser.close());
    return browser;
  });

// A built page, served by the gateway with its real CSP, in a real browser: nothing is blocked and a lazy
// area arrives with its stylesheet applied.
describe.skipIf(!existsSync(CHROMIUM))('the built page in Chromium', () => {
  // The build, the gateway and the browser start here, with a hook's time rather than the test's.
  test.beforeAll(({ served: _, browser: __ }) => {}, 90_000);

  test('renders under the CSP without violations, with the instance title and the lazy area styled', async ({ browser, served }) => {
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

import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { withJourney, type Journey } from '../helpers/e2e-browser.ts';
import { signIn } from '../helpers/e2e-api.ts';
import { forEachUpstream, targetOf, type E2eUpstream } from '../helpers/e2e-upstreams.ts';

// Every screen an administrator reaches from the sidebar, as [link, heading].
const SIDEBAR: [string, string][] = [
  ['Dashboard', 'Dashboard'],
  ['Hilfe & Unterlagen & Infos', 'Hilfe & Unterlagen & Infos'],
  ['News', 'News'],
  ['New User', 'New User'],
  ['Coaches verwalten', 'Coaches verwalten'],
  ['Controlling', 'Controlling'],
  ['Export', 'Export'],
];

async function openSidebarLink(page: Page, name: string) {
  const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
  if (!(await nav.isVisible())) await page.getByRole('button', { name: 'Menü ein- oder ausblenden' }).click();
  const link = nav.getByRole('link', { name, exact: true });
  if (!(await link.isVisible())) await nav.getByRole('button', { name: 'Verwaltung' }).click();
  await link.click();
}

/** The page is as wide as the window: nothing forces a sideways scroll (tables scroll in their own box). */
async function expectNoSidewaysScroll(page: Page, screen: string) {
  // Compared with the configured viewport: on a phone Chromium widens window.innerWidth to fit wide content.
  const width = page.viewportSize()?.width ?? 0;
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, `${screen} is ${scrollWidth} px wide in a ${width} px window`).toBeLessThanOrEqual(width);
}

async function tour(j: Journey, upstream: E2eUpstream) {
  const { page } = j;
  await page.goto('/login');
  await signIn(page, upstream.accounts.admin, upstream.password);
  await page.waitForURL('**/dashboard');
  for (const [link, heading] of SIDEBAR) {
    await openSidebarLink(page, link);
    await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
    await j.idle();
    await expectNoSidewaysScroll(page, heading);
    await j.screen(heading);
  }
  await page.getByRole('button', { name: 'Profil' }).click();
  await page.getByRole('menuitem', { name: 'Einstellungen' }).click();
  await page.getByRole('heading', { level: 1, name: 'Einstellungen' }).waitFor();
  await j.idle();
  await expectNoSidewaysScroll(page, 'Einstellungen');
  await j.screen('Einstellungen');

  // An unknown address: the gateway answers 404 with the page, which shows its not-found screen.
  j.provoke({ url: /\/gibt-es-nicht$/, status: 404 });
  await page.goto('/gibt-es-nicht');
  await page.getByRole('heading', { level: 1, name: 'Seite nicht gefunden' }).waitFor();
  await j.idle();
  await j.screen('not found');
  await page.getByRole('link', { name: 'Zum Dashboard' }).click();
  await page.waitForURL('**/dashboard');
}

forEachUpstream((upstream, journey) => {
  journey('shows every screen of the administrator on a desktop without errors, sideways scrolling or serious accessibility problems', async ({ j }) => {
    await tour(j, upstream);
  });

  test('shows every screen of the administrator on a 375 px phone without errors, sideways scrolling or serious accessibility problems', async () => {
    await withJourney(
      `${upstream.name} tour on a phone`,
      { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true },
      (j) => tour(j, upstream),
      targetOf(upstream),
    );
  });
});

import { describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { withJourney, type Journey } from '../helpers/e2e-browser.ts';
import { DEMO, signIn } from '../helpers/e2e-api.ts';

/*
 * A coach's phone at 375 px with a finger, measured in Chromium on the built client: every control at least
 * 24 x 24 px (WCAG 2.2, 2.5.8), the buttons pressed all day and the call links at least 44 x 44 px. Layout does
 * not depend on the upstream, so these run against the built-in one.
 */

const PHONE = { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true };
const MINIMUM = 24;
const PRIMARY = 44;

function onPhone(title: string, run: (j: Journey) => Promise<void>) {
  test(title, () => withJourney(`${title} (phone)`, PHONE, run));
}

async function signInAsCoach(page: Page) {
  await page.goto('/login');
  await signIn(page, DEMO.coach);
  await page.waitForURL('**/dashboard');
}

/** The first patient of the coach's list, as the path of the record. */
async function firstRecord(page: Page): Promise<string> {
  await page.goto('/patient');
  const href = await page.locator('table a[href^="/patient/"]').first().getAttribute('href');
  if (!href) throw new Error('the demo coach has no patient in the list');
  return href;
}

/**
 * Every visible control of the page that is too small for a finger, as "WxH what": a control under 24 px either way;
 * a button, a link shown as a button or a phone link under 44 px.
 */
function tooSmall(page: Page): Promise<string[]> {
  return page.evaluate(
    ({ minimum, primary }) => {
      const found: string[] = [];
      const controls = document.querySelectorAll<HTMLElement>(
        'a[href], button, [role="button"], input:not([type="hidden"]), select, textarea, summary, [role="tab"]',
      );
      for (const control of controls) {
        const { width, height } = control.getBoundingClientRect();
        // Not on screen (a closed menu, a visually hidden skip link): nothing a finger can hit.
        if (width <= 1 || height <= 1 || control.closest('[hidden], .skip-link') || getComputedStyle(control).visibility === 'hidden') continue;
        const isPrimary = control.matches('button, [role="button"], [type="submit"], [type="button"], a[href^="tel:"]');
        const least = isPrimary ? primary : minimum;
        if (width < least || height < least) {
          const name = (control.getAttribute('aria-label') ?? control.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
          found.push(`${Math.round(width)}x${Math.round(height)} ${control.tagName.toLowerCase()} "${name}" (needs ${least})`);
        }
      }
      return found;
    },
    { minimum: MINIMUM, primary: PRIMARY },
  );
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error(`${locator} is not rendered`);
  return found;
}

describe('touch targets on a phone', () => {
  onPhone('at 375 px the dashboard, a record (overview and comments) and New User have no control a finger could miss', async (j) => {
    const { page } = j;
    await signInAsCoach(page);
    const record = await firstRecord(page);
    const screens = ['/dashboard', record, `${record}?tab=comments`, `${record}?tab=access`, '/create-access'];
    const problems: string[] = [];
    let measured = 0;
    for (const path of screens) {
      await page.goto(path);
      await page.getByRole('main').getByRole('heading', { level: 1 }).first().waitFor();
      await j.idle();
      measured += await page.locator('main button, main a[href]').count();
      for (const problem of await tooSmall(page)) problems.push(`${path}: ${problem}`);
    }
    expect(problems).toEqual([]);
    // The screens really had their buttons and links (a page still loading would pass with nothing on it).
    expect(measured).toBeGreaterThan(40);
    await j.screen('New User on a phone');
  });

  onPhone('the top bar has a search button that opens the patient search, without the "/" key tip a phone cannot use', async (j) => {
    const { page } = j;
    await signInAsCoach(page);
    const button = page.getByRole('banner').getByRole('button', { name: 'Patientin oder Patient suchen' });
    const size = await box(button);
    expect(size.width).toBeGreaterThanOrEqual(PRIMARY);
    expect(size.height).toBeGreaterThanOrEqual(PRIMARY);
    await button.click();
    const dialog = page.getByRole('dialog', { name: 'Patientin oder Patient suchen' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('search');
    expect(await page.getByText(/Taste „\/“/).count(), 'no "/" tip in the dialog or on the dashboard').toBe(0);
    await j.screen('search from the top bar on a phone');
  });

  onPhone('a record shows its tabs in one row that scrolls sideways, keeps the open tab in view and starts on the first screen', async (j) => {
    const { page } = j;
    await signInAsCoach(page);
    const record = await firstRecord(page);
    await page.goto(`${record}?tab=access`);
    const bar = page.getByRole('navigation', { name: 'Bereiche der Patientenakte' });
    const tabs = bar.getByRole('link');
    await tabs.first().waitFor();
    await j.idle();
    expect(await tabs.count()).toBeGreaterThan(5);
    const rows = new Set<number>();
    for (const tab of await tabs.all()) rows.add(Math.round((await box(tab)).y));
    expect(rows.size, 'every tab on one row').toBe(1);
    const open = await box(bar.locator('[aria-current="page"]'));
    expect(open.x, 'the open tab starts on the screen').toBeGreaterThanOrEqual(0);
    expect(open.x + open.width, 'the open tab ends on the screen').toBeLessThanOrEqual(375);
    // The row scrolls, not the page.
    expect(await bar.evaluate((row) => row.scrollWidth > row.clientWidth)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // The record's first card begins well inside the first screen (740 px), not below the header and tabs.
    const firstCard = await box(page.locator('.tab-panel .card').first());
    expect(firstCard.y).toBeLessThan(740 / 2);
  });
});

import { describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { journey, withJourney } from '../helpers/e2e-browser.ts';
import { DEMO, signIn } from '../helpers/e2e-api.ts';

/*
 * The sizes of docs/product.md#constants and the layout rules of the stylesheets, measured in Chromium on the built
 * client (happy-dom has no layout). Layout does not depend on the upstream, so these run against the built-in one.
 */

const PHONE = { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true };

type Box = { x: number; y: number; width: number; height: number };

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  if (!found) throw new Error(`${locator} is not rendered`);
  return found;
}

async function signInAs(page: Page, email: string) {
  await page.goto('/login');
  await signIn(page, email);
  await page.waitForURL('**/dashboard');
}

/** The sidebar starts closed on windows up to 2500 px; the top bar's button opens it. */
async function openSidebar(page: Page): Promise<Locator> {
  const sidebar = page.getByRole('navigation', { name: 'Hauptnavigation' });
  if (!(await sidebar.isVisible())) await page.getByRole('button', { name: 'Menü ein- oder ausblenden' }).click();
  await sidebar.waitFor({ state: 'visible' });
  return sidebar;
}

/**
 * How wide the page is against the configured window: on a phone Chromium widens window.innerWidth to fit wide
 * content, so innerWidth would hide a page that scrolls sideways.
 */
async function pageOverhang(page: Page): Promise<number> {
  const width = page.viewportSize()?.width ?? 0;
  return (await page.evaluate(() => document.documentElement.scrollWidth)) - width;
}

describe('the layout in Chromium', () => {
  journey('at 1280 px the open sidebar is 250 px wide, starts below the 56 px top bar and pushes the page aside', async ({ j }) => {
    const { page } = j;
    await signInAs(page, DEMO.admin);
    const sidebar = await openSidebar(page);
    const topBar = await box(page.getByRole('banner'));
    expect(topBar).toMatchObject({ y: 0, height: 56, width: 1280 });
    const side = await box(sidebar);
    expect(side).toMatchObject({ x: 0, y: 56, width: 250 });
    expect((await box(page.getByRole('main'))).x).toBe(250);
  });

  journey('a record whose last contact arrives after the page has shown does not move when it comes', async ({ j }) => {
    const { page } = j;
    await signInAs(page, DEMO.coach);
    const newest = page.locator('section', { has: page.getByRole('heading', { name: 'Neueste Kommentare' }) });
    const record = await newest.locator('a[href^="/patient/"]').first().getAttribute('href');
    // The calls the last contact is read from answer later than the page waits before it shows (components/Settle.tsx).
    await page.route(/\/v2\/(comments\?|patients\/[^/]+\/sync-db\/event)/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 4500));
      await route.continue().catch(() => undefined);
    });
    await page.goto(record ?? '/patient');
    const contact = page.locator('.patient-identity div', { has: page.getByText('Letzter Kontakt', { exact: true }) }).locator('dd');
    await expect.poll(() => contact.textContent()).toBe('…');
    const tabs = page.getByRole('navigation', { name: 'Bereiche der Patientenakte' });
    const before = await box(tabs);
    await expect.poll(() => contact.textContent(), { timeout: 15_000 }).toMatch(/\((Anruf|Kommentar)\)$/);
    expect(await box(tabs)).toEqual(before);
  });

  journey('at 1280 px every tab of a record is on the screen, none hidden in a sideways scroll a mouse gives no hint of', async ({ j }) => {
    const { page } = j;
    await signInAs(page, DEMO.coach);
    await page.goto('/patient');
    const record = await page.locator('table a[href^="/patient/"]').first().getAttribute('href');
    await page.goto(record ?? '/patient');
    const bar = page.getByRole('navigation', { name: 'Bereiche der Patientenakte' });
    await bar.getByRole('link').first().waitFor();
    expect(await bar.evaluate((row) => row.scrollWidth - row.clientWidth)).toBeLessThanOrEqual(0);
    const right = (await box(bar)).x + (await box(bar)).width;
    const tabs = await Promise.all((await bar.getByRole('link').all()).map(box));
    for (const tab of tabs) expect(tab.x + tab.width).toBeLessThanOrEqual(right);
    // Side by side from the left, as tabs are, not spread over the row.
    for (let i = 1; i < tabs.length; i++) if (tabs[i].y === tabs[i - 1].y) expect(tabs[i].x - (tabs[i - 1].x + tabs[i - 1].width)).toBeLessThan(12);
  });

  journey('the small-screen layout starts below 768 px: there the open sidebar lies over the page, behind a backdrop', async ({ j }) => {
    const { page } = j;
    await signInAs(page, DEMO.admin);
    const sidebar = await openSidebar(page);
    const main = page.getByRole('main');
    // The backdrop is decoration (aria-hidden, no role), so it is found by its class.
    const backdrop = page.locator('.sidebar-backdrop');

    await page.setViewportSize({ width: 768, height: 800 });
    expect((await box(main)).x, 'at 768 px the page moves aside for the sidebar').toBe(250);
    expect(await backdrop.isVisible(), 'no backdrop at 768 px').toBe(false);

    await page.setViewportSize({ width: 767, height: 800 });
    expect(await sidebar.isVisible()).toBe(true);
    expect((await box(sidebar)).width).toBe(250);
    expect((await box(main)).x, 'at 767 px the page keeps its place under the sidebar').toBe(0);
    expect(await box(backdrop), 'at 767 px a backdrop covers the page below the top bar').toMatchObject({ x: 0, y: 56, width: 767 });
  });

  journey('the reset request form is 500 px wide on a wide window and as wide as a phone allows', async ({ j }) => {
    const { page } = j;
    await page.goto('/coach-reset-password');
    const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Passwort zurücksetzen' }) });
    expect((await box(form)).width).toBe(500);
    await page.setViewportSize({ width: 375, height: 740 });
    const narrow = await box(form);
    expect(narrow.x).toBeGreaterThanOrEqual(0);
    expect(narrow.x + narrow.width).toBeLessThanOrEqual(375);
    expect(await pageOverhang(page)).toBeLessThanOrEqual(0);
  });

  // A field's message appears when the field loses focus, which is the moment the person presses the button below
  // it: if the message pushed the button down, the click would land beside it and the form would not be sent.
  journey('on the password screens a field message appearing on blur does not move the submit button', async ({ j }) => {
    const { page } = j;
    const cases = [
      { path: '/coach-reset-password', field: 'Email', value: '', button: 'Passwort zurücksetzen' },
      { path: '/coach-reset-password', field: 'Email', value: 'keine-adresse', button: 'Passwort zurücksetzen' },
      { path: '/reset-password', field: 'Ihr neues Passwort', value: '', button: 'Passwort ändern' },
      { path: '/reset-password', field: 'Ihr neues Passwort', value: 'kurz', button: 'Passwort ändern' },
      { path: '/reset-password', field: 'Wiederholen Sie Ihr neues Passwort', value: '', button: 'Passwort ändern' },
    ];
    const moves: string[] = [];
    let seen = 0;
    // The longer messages wrap to two lines on a phone.
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      for (const { path, field, value, button } of cases) {
        await page.goto(path);
        const input = page.getByPlaceholder(field, { exact: true });
        await input.fill(value);
        const submit = page.getByRole('button', { name: button });
        const before = (await box(submit)).y;
        await input.blur();
        const message = page.locator(`[id="${await input.getAttribute('aria-describedby')}"]`);
        await expect.poll(() => message.innerText()).not.toBe('');
        const after = (await box(submit)).y;
        seen++;
        if (after !== before)
          moves.push(`${width} px, ${path}, "${field}" = "${value}": "${await message.innerText()}" moved the button by ${after - before} px`);
      }
    }
    expect(seen).toBe(10);
    expect(moves).toEqual([]);
  });

  test375('at 375 px no screen with a table scrolls sideways; a table wider than its box scrolls in that box', async (j) => {
    const { page } = j;
    await signInAs(page, DEMO.admin);
    const screens = ['/patient', '/admin', '/admin/devices', '/admin/surveys', '/admin/diagnoses', '/admin/cost-rates', '/admin/replication', '/stats'];
    await page.goto('/patient');
    const record = await page.locator('table a[href^="/patient/"]').first().getAttribute('href');
    const id = record?.split('/').pop() ?? '';
    screens.push(`${record}?tab=data`, `/print/patient?id=${encodeURIComponent(id)}`);
    const problems: string[] = [];
    let scrolledTables = 0;
    for (const path of screens) {
      await page.goto(path);
      await page.locator('table').first().waitFor({ state: 'attached' });
      await j.idle();
      // The record's data tab folds each answered survey (with its table) into a <details>: all unfolded, as if clicked.
      await page.evaluate(() => {
        for (const details of document.querySelectorAll('details')) (details as HTMLDetailsElement).open = true;
      });
      // Every chart shown as its table.
      const toTable = page.getByRole('button', { name: 'Als Tabelle anzeigen' });
      while ((await toTable.count()) > 0) await toTable.first().click();
      const overhang = await pageOverhang(page);
      if (overhang > 0) problems.push(`${path} is ${overhang} px wider than the screen`);
      for (const table of await page.locator('table').all()) {
        const scroller = table.locator('xpath=..');
        if ((await box(table)).width <= (await scroller.evaluate((element) => element.clientWidth))) continue;
        // Wider than its box: a sideways swipe (wheel) over it, as a person would, moves the table in its box, not the page.
        await scroller.evaluate((element) => element.scrollIntoView({ block: 'center' }));
        const visible = await box(scroller);
        if (visible.x < 0 || visible.x + visible.width > 375) problems.push(`${path}: the box of a wide table reaches out of the screen`);
        // The middle of the part of the box that shows between the top bar and the bottom of the screen.
        const top = Math.max(visible.y, 56);
        const bottom = Math.min(visible.y + visible.height, 740);
        await page.mouse.move(visible.x + visible.width / 2, (top + bottom) / 2);
        await page.mouse.wheel(200, 0);
        await expect
          .poll(() => table.evaluate((t) => t.getBoundingClientRect().x), { message: `${path}: the wide table scrolls in its box` })
          .toBeLessThan(visible.x);
        expect(await page.evaluate(() => window.scrollX), `${path}: the page itself does not move sideways`).toBe(0);
        scrolledTables++;
      }
    }
    expect(problems).toEqual([]);
    // The Controlling table, the reference tables and a chart's table are wider than a phone: scroll boxes were really tried.
    expect(scrolledTables).toBeGreaterThan(3);
  });

  test375('at 375 px the printable access code sheet, with its QR code and download link, does not scroll sideways', async (j) => {
    await signInAs(j.page, DEMO.coach);
    await j.page.goto('/create-access');
    await j.page.getByRole('button', { name: 'Zugangscode erstellen' }).click();
    const [page] = await Promise.all([j.context.waitForEvent('page'), j.page.getByRole('button', { name: 'Ausdrucken' }).first().click()]);
    // The demo app settings have a download link: its QR code stands beside a heading with a long German word.
    await page.getByRole('img', { name: 'QR-Code mit der Adresse zum Herunterladen der App' }).waitFor();
    await j.idle();
    expect(await pageOverhang(page)).toBeLessThanOrEqual(0);
    const heading = await box(page.getByRole('heading', { name: 'Die App herunterladen' }));
    expect(heading.x + heading.width).toBeLessThanOrEqual(375);
  });

  test375("at 375 px Controlling's calendar ranges are equal buttons in two columns under their label", async (j) => {
    const { page } = j;
    await signInAs(page, DEMO.health);
    await page.goto('/stats');
    const presets = page.getByRole('group', { name: 'Schnellauswahl:' });
    await presets.getByRole('button').first().waitFor();
    const label = await box(presets.getByText('Schnellauswahl:'));
    const buttons = await Promise.all((await presets.getByRole('button').all()).map(box));
    expect(buttons.length).toBe(5);
    // Below the label, not beside it; every button as wide as the others, two to a row.
    for (const b of buttons) expect(b.y).toBeGreaterThanOrEqual(label.y + label.height);
    expect(new Set(buttons.map((b) => Math.round(b.width))).size).toBe(1);
    expect(new Set(buttons.map((b) => Math.round(b.x))).size).toBe(2);
  });

  // The record's tabs are one row that scrolls sideways instead (touch-targets.test.ts).
  test375("at 375 px the administration's tab bar wraps: every tab stays on the screen", async (j) => {
    const { page } = j;
    await signInAs(page, DEMO.admin);
    const bars = [{ path: '/admin', name: 'Bereiche der Verwaltung' }];
    const outside: string[] = [];
    for (const { path, name } of bars) {
      await page.goto(path);
      const tabs = page.getByRole('navigation', { name }).getByRole('link');
      await tabs.first().waitFor();
      await j.idle();
      expect(await tabs.count()).toBeGreaterThan(4);
      for (const tab of await tabs.all()) {
        const { x, width } = await box(tab);
        if (x < 0 || x + width > 375) outside.push(`${name}: "${await tab.innerText()}" spans ${Math.round(x)} to ${Math.round(x + width)} px`);
      }
      expect(await pageOverhang(page)).toBeLessThanOrEqual(0);
    }
    expect(outside).toEqual([]);
  });

  journey('the patient list keeps "Filter zurücksetzen" on one line and gives the search field the corners of the selects', async ({ j }) => {
    const { page } = j;
    await signInAs(page, DEMO.coach);
    await page.goto('/patient?status=active');
    const reset = page.getByRole('button', { name: 'Filter zurücksetzen' });
    const search = page.getByRole('searchbox', { name: 'Suche' });
    const select = page.getByRole('search').getByRole('combobox').first();
    await reset.waitFor();
    // Pico draws a search field as a pill (a radius of 5rem); here it is one field among the selects.
    const corner = (field: Locator) => field.evaluate((element) => getComputedStyle(element).borderTopLeftRadius);
    for (const width of [1280, 900, 768, 375]) {
      await page.setViewportSize({ width, height: 800 });
      // One line of text has one line box: a wrapped label has a second one, lower down.
      const lines = await reset.evaluate((button) => {
        const range = document.createRange();
        range.selectNodeContents(button);
        return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
      });
      expect(lines, `the label at ${width} px`).toBe(1);
      expect(await corner(search), `the search field's corners at ${width} px`).toBe(await corner(select));
      expect(Number.parseFloat(await corner(search))).toBeLessThan((await box(search)).height / 4);
    }
  });
});

/** A journey in a fresh 375 px phone context (its checks included: no console error, no failed request). */
function test375(title: string, run: Parameters<typeof withJourney>[2]) {
  test(title, () => withJourney(`${title} (phone)`, PHONE, run));
}

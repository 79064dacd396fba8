import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { forEachUpstream } from '../helpers/e2e-upstreams.ts';

interface Focused {
  tag: string;
  type: string;
  name: string;
  href: string;
  visible: boolean;
}

async function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { tag: 'body', type: '', name: '', href: '', visible: false };
    const labelled = (el as HTMLInputElement).labels?.[0]?.textContent ?? '';
    return {
      tag: el.tagName.toLowerCase(),
      type: el.getAttribute('type') ?? '',
      name: (el.getAttribute('aria-label') ?? (el.textContent?.trim() || labelled)).trim(),
      href: el.getAttribute('href') ?? '',
      // Keyboard focus must be visible (WCAG 2.4.7); Chromium applies :focus-visible after Tab.
      visible: el.matches(':focus-visible'),
    };
  });
}

/** Presses Tab until the focused element satisfies `wanted`; fails after `max` presses. */
async function tabTo(page: Page, wanted: (f: Focused) => boolean, what: string, max = 40): Promise<Focused> {
  const seen: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    seen.push(`${now.tag}${now.type ? `[${now.type}]` : ''} "${now.name.slice(0, 30)}"`);
    if (wanted(now)) {
      expect(now.visible, `focus on ${what} is not visible`).toBe(true);
      return now;
    }
  }
  throw new Error(`${what} not reached with ${max} Tab presses; focus went: ${seen.join(' -> ')}`);
}

forEachUpstream((upstream, journey) => {
  journey('signs in, opens the patient list, filters it and opens a patient without a mouse', async ({ j }) => {
    const { page } = j;
    await page.goto('/login');
    await page.getByRole('button', { name: 'Anmelden' }).waitFor();
    await tabTo(page, (f) => f.tag === 'input' && f.type === 'email', 'the e-mail field', 5);
    await page.keyboard.type(upstream.accounts.coach);
    await page.keyboard.press('Tab');
    expect((await focused(page)).type).toBe('password');
    await page.keyboard.type(upstream.password);
    await j.screen('login filled by keyboard');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/dashboard');
    await j.idle();

    // The skip link is the first stop on every shell screen.
    await tabTo(page, (f) => f.name === 'Zum Inhalt springen', 'the skip link', 1);
    await page.keyboard.press('Enter');
    // "Mein Tag" comes first: each worklist row of "Brauchen Aufmerksamkeit" is about nine stops (name, call link,
    // note, length, the date field's day, month, year and picker, the two outcomes) before the caseload's links.
    await tabTo(page, (f) => f.tag === 'a' && /^\/patient\?/.test(f.href), 'a link to the patient list', 100);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/patient');
    await page.getByRole('table', { name: 'Patientenliste' }).waitFor();
    await j.screen('patient list reached by keyboard');

    // The names (each row also links the phone number).
    const rows = page.getByRole('table', { name: 'Patientenliste' }).locator('a[href^="/patient/"]');
    const target = (await rows.nth(1).innerText()).trim();
    const lastName = target.split(',')[0];
    await tabTo(page, (f) => f.tag === 'input' && f.type === 'search', 'the search field');
    await page.keyboard.type(lastName);
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toContain(lastName);
    await expect.poll(async () => (await rows.allInnerTexts()).every((name) => name.includes(lastName))).toBe(true);
    await j.screen('patient list filtered by keyboard');

    const link = await tabTo(page, (f) => f.tag === 'a' && /^\/patient\/[^/?]+$/.test(f.href), 'the first patient in the list');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === link.href);
    await page
      .getByRole('heading', { name: new RegExp(lastName) })
      .first()
      .waitFor();
    await j.screen('patient record opened by keyboard');
  });
});

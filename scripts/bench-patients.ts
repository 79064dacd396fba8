import type { Browser } from 'playwright-core';
import { SEARCH_PAUSE_MS } from '../client/features/patient/search-pause.ts';

/** A search and the patients the list's first page must then show, in order (as the upstream answers it). */
export interface SearchTarget {
  text: string;
  ids: string[];
}

export interface PatientListBench {
  renderMs: number;
  renderNote: string;
  /** From the end of the search box's input pause to the matching rows on the screen. */
  filterMs: number;
  filterNote: string;
}

/**
 * The patient list as the administrator (who sees all 5,000) on a phone-class CPU (4x throttling): navigation to a
 * rendered first page, then typing a patient's code until the list shows what the upstream finds for it. Signed in through the
 * login page, as a coach is.
 */
export async function benchPatientList(browser: Browser, origin: string, email: string, password: string, target: SearchTarget): Promise<PatientListBench> {
  const context = await browser.newContext({ baseURL: origin, locale: 'de-DE', viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('E-Mail', { exact: true }).fill(email);
    await page.getByLabel('Passwort', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.waitForURL('**/dashboard');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    // Warm the HTTP cache once, as a coach returning to the list would have it.
    await page.goto('/patient');
    await page.getByRole('table', { name: 'Patientenliste' }).waitFor({ timeout: 60_000 });
    await page.goto('/patient', { waitUntil: 'commit' });
    const rendered = await page.waitForFunction(
      () => {
        const rows = document.querySelectorAll('table tbody tr a[href^="/patient/"]');
        const summary = document.querySelector('.list-summary')?.textContent ?? '';
        return rows.length > 0 && /\d/.test(summary) ? { ms: performance.now(), rows: rows.length, summary } : false;
      },
      undefined,
      { polling: 'raf', timeout: 60_000 },
    );
    const render = (await rendered.jsonValue()) as { ms: number; rows: number; summary: string };

    const search = page.getByRole('searchbox');
    await search.click();
    await search.pressSequentially(target.text);
    const typed = await page.evaluate(() => performance.now());
    const filtered = await page.waitForFunction(
      (ids) => {
        const links = [...document.querySelectorAll('table tbody tr a[href^="/patient/"]')].map((a) => a.getAttribute('href'));
        return links.join(' ') === ids.map((id) => `/patient/${encodeURIComponent(id)}`).join(' ') ? { ms: performance.now() } : false;
      },
      target.ids,
      { polling: 'raf', timeout: 60_000 },
    );
    const filter = (await filtered.jsonValue()) as { ms: number };
    return {
      renderMs: render.ms,
      renderNote: `navigation to first page (${render.rows} rows, "${render.summary.trim()}"), warm cache`,
      filterMs: filter.ms - typed - SEARCH_PAUSE_MS,
      filterNote: `"${target.text}": from the end of the ${SEARCH_PAUSE_MS} ms input pause after the last key to its ${target.ids.length} matching rows`,
    };
  } finally {
    await context.close();
  }
}

import type { Browser } from 'playwright-core';
import { SEARCH_PAUSE_MS } from '../client/features/patient/listQuery.ts';

const FIRST = ['Anna', 'Ben', 'Clara', 'David', 'Eva', 'Felix', 'Greta', 'Hans', 'Ida', 'Jonas', 'Karla', 'Lukas'];
const LAST = ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann'];

/** n as letters ("bqx"): a name part no phone number or patient code can contain, so one search finds one patient. */
function letters(n: number): string {
  let text = '';
  for (let rest = n + 26 * 27; rest > 0; rest = Math.floor(rest / 26)) text = String.fromCharCode(97 + (rest % 26)) + text;
  return text;
}

/**
 * Seeds `count` patients through the upstream's own /v2 API (direct, as the administrator), 16 at a time,
 * so the data is exactly what the product would store.
 */
export async function seedPatients(upstreamUrl: string, token: string, count: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = next++;
      const body = {
        firstName: FIRST[n % FIRST.length],
        lastName: `${LAST[n % LAST.length]}-${letters(n)}`,
        birthDate: `19${50 + (n % 50)}-0${1 + (n % 9)}-1${n % 10}`,
        gender: (['female', 'male', 'diverse', 'unknown'] as const)[n % 4],
        clinic: `Reha-Klinik ${1 + (n % 7)}`,
        aftercareStart: '2026-01-05',
        aftercareEnd: '2026-12-18',
      };
      const response = await fetch(`${upstreamUrl}/v2/patients`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`seeding patient ${n} answered ${response.status}: ${await response.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

export interface PatientListBench {
  renderMs: number;
  renderNote: string;
  /** From the end of the search box's input pause to the matching rows on the screen. */
  filterMs: number;
  filterNote: string;
}

/** One patient of the seeded 5,000: Weber with the letters of 4,204. */
const FILTER_TERM = `Weber-${letters(4204)}`;

/**
 * The patient list as the administrator (who sees all 5,000) on a phone-class CPU (4x throttling): navigation to a
 * rendered first page, then typing a search term until only the matching patient is shown. Signed in through the
 * login page, as a coach is.
 */
export async function benchPatientList(browser: Browser, origin: string, email: string, password: string): Promise<PatientListBench> {
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
    await search.pressSequentially(FILTER_TERM);
    const typed = await page.evaluate(() => performance.now());
    const filtered = await page.waitForFunction(
      (term) => {
        const names = [...document.querySelectorAll('table tbody tr a[href^="/patient/"]')].map((a) => a.textContent ?? '');
        return names.length === 1 && names[0].includes(term) ? { ms: performance.now() } : false;
      },
      FILTER_TERM,
      { polling: 'raf', timeout: 60_000 },
    );
    const filter = (await filtered.jsonValue()) as { ms: number };
    return {
      renderMs: render.ms,
      renderNote: `navigation to first page (${render.rows} rows, "${render.summary.trim()}"), warm cache`,
      filterMs: filter.ms - typed - SEARCH_PAUSE_MS,
      filterNote: `"${FILTER_TERM}": from the end of the ${SEARCH_PAUSE_MS} ms input pause after the last key to the one matching row`,
    };
  } finally {
    await context.close();
  }
}

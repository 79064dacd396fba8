import type { Browser } from 'playwright-core';

const FIRST = ['Anna', 'Ben', 'Clara', 'David', 'Eva', 'Felix', 'Greta', 'Hans', 'Ida', 'Jonas', 'Karla', 'Lukas'];
const LAST = ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann'];

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
        lastName: `${LAST[n % LAST.length]}-${n}`,
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
  filterMs: number;
  filterNote: string;
}

const FILTER_TERM = 'Weber-42';

/**
 * The patient list as the administrator (who sees all 5,000) on a phone-class CPU (4x throttling):
 * navigation to a rendered first page, then typing a search term until only matching rows are shown.
 */
export async function benchPatientList(browser: Browser, origin: string, token: string): Promise<PatientListBench> {
  const context = await browser.newContext({
    baseURL: origin,
    storageState: { cookies: [], origins: [{ origin, localStorage: [{ name: 'accessToken', value: token }] }] },
  });
  try {
    const page = await context.newPage();
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
    const started = await page.evaluate(() => performance.now());
    await search.pressSequentially(FILTER_TERM);
    const typed = await page.evaluate(() => performance.now());
    const filtered = await page.waitForFunction(
      (term) => {
        const names = [...document.querySelectorAll('table tbody tr a[href^="/patient/"]')].map((a) => a.textContent ?? '');
        return names.length > 0 && names.every((n) => n.includes(term)) ? { ms: performance.now(), rows: names.length } : false;
      },
      FILTER_TERM,
      { polling: 'raf', timeout: 60_000 },
    );
    const filter = (await filtered.jsonValue()) as { ms: number; rows: number };
    return {
      renderMs: render.ms,
      renderNote: `navigation to first page (${render.rows} rows, "${render.summary.trim()}"), warm cache`,
      filterMs: filter.ms - typed,
      filterNote: `last key of "${FILTER_TERM}" to ${filter.rows} matching rows (typing took ${Math.round(typed - started)} ms; includes the list's 300 ms input pause)`,
    };
  } finally {
    await context.close();
  }
}

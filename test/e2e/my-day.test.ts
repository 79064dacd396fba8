import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { apiInPage, signIn } from '../helpers/e2e-api.ts';
import { forEachUpstream } from '../helpers/e2e-upstreams.ts';

interface PatientRow {
  id: string;
  firstName: string;
  lastName: string;
  /** Absent on a LoopBack patient that never had one. */
  appointments?: { id: string; startsAt: string }[];
}

/** The browser's today (YYYY-MM-DD) and a time later today that the appointment form takes (HH:MM). */
const browserToday = (page: Page) =>
  page.evaluate(() => {
    const now = new Date();
    const pad = (n: number) => String(n).padStart(2, '0');
    const later = new Date(Math.min(now.getTime() + 60 * 60_000, new Date(now.getFullYear(), now.getMonth(), now.getDate(), 23, 55).getTime()));
    return { day: `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`, time: `${pad(later.getHours())}:${pad(later.getMinutes())}` };
  });

/** A patient of the coach in aftercare today: "Mein Tag" reads the appointments of those. */
async function activePatient(page: Page, day: string): Promise<PatientRow> {
  const filter = { where: { aftercareStart: { lte: day }, aftercareEnd: { gte: day } }, order: ['lastName ASC', 'id ASC'], limit: 1 };
  const [row] = await apiInPage<PatientRow[]>(page, 'GET', `/patients?filter=${encodeURIComponent(JSON.stringify(filter))}`);
  return row;
}

forEachUpstream((upstream, journey) => {
  journey('an appointment made today on a patient shows under "Mein Tag" on the dashboard, first on a phone', async ({ j }) => {
    const { page } = j;
    await page.goto('/login');
    await signIn(page, upstream.accounts.coach, upstream.password);
    await page.waitForURL('**/dashboard');
    const { day, time } = await browserToday(page);
    const patient = await activePatient(page, day);
    const name = `${patient.firstName} ${patient.lastName}`.trim();
    const before = patient.appointments ?? [];

    await page.goto(`/patient/${encodeURIComponent(patient.id)}?tab=appointments`);
    await page.getByRole('heading', { name: 'Termine', level: 2 }).waitFor();
    await page.getByLabel('Beginn').fill(`${day}T${time}`);
    await page.getByLabel('Art').selectOption({ label: 'Videosprechstunde' });
    await page.getByRole('button', { name: 'Termin eintragen' }).click();
    await expect
      .poll(async () => (await apiInPage<PatientRow>(page, 'GET', `/patients/${encodeURIComponent(patient.id)}`)).appointments?.length)
      .toBe(before.length + 1);

    await page.goto('/dashboard');
    const myDay = page.locator('section.my-day');
    const today = myDay.locator('.my-day-agenda ul').first();
    const row = today.locator('li', { hasText: name });
    await row.waitFor();
    expect(await row.textContent()).toContain(time);
    expect(await row.textContent()).toContain('Videosprechstunde');
    expect(await row.getByRole('link', { name }).getAttribute('href')).toBe(`/patient/${encodeURIComponent(patient.id)}?tab=appointments`);
    await j.idle();
    await j.screen('mein tag with the new appointment');

    // On a phone the day comes before the search and the figures.
    await page.setViewportSize({ width: 375, height: 800 });
    const top = async (selector: string) => (await page.locator(selector).first().boundingBox())!.y;
    expect(await top('#attention-heading')).toBeLessThan(await top('.dashboard-search'));
    expect(await top('#my-day-heading')).toBeLessThan(await top('#caseload-heading'));
    await j.screen('mein tag on a phone');

    // Clean up: the next journey finds the patient as before.
    await apiInPage(page, 'PUT', `/patients/${encodeURIComponent(patient.id)}/appointments`, before);
  });
});

import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { apiInPage, signIn } from '../helpers/e2e-api.ts';
import { forEachUpstream } from '../helpers/e2e-upstreams.ts';

interface CallRecord {
  id: string;
  data: { type: string; kind?: string; done: boolean; notes: string; durationMinutes: number; start: string };
}
const today = () => new Date().toISOString().slice(0, 10);
/** The day Controlling counts in: the built-in upstream groups calls by the day in Berlin, not in UTC. */
const berlinToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

async function signInAs(page: Page, email: string, password: string) {
  await page.goto('/login');
  await signIn(page, email, password);
  await page.waitForURL('**/dashboard');
}
async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Abmelden' }).click();
  await page.waitForURL('**/login');
}
/** Phone coachings Controlling counts today (the built-in upstream's statistics). */
async function coachingsToday(page: Page): Promise<number> {
  const day = encodeURIComponent(JSON.stringify(berlinToday()));
  const rows = await apiInPage<{ date: string; count: number }[]>(page, 'GET', `/statistics/phone-coachings?from=${day}&to=${day}`);
  return rows.reduce((sum, row) => sum + row.count, 0);
}
const calls = (page: Page, patientId: string) =>
  apiInPage<CallRecord[]>(page, 'GET', `/patients/${patientId}/sync-db/event`).then((records) => records.filter((r) => r.id.startsWith('call-')));

forEachUpstream((upstream, journey) => {
  journey('records a call from "Brauchen Aufmerksamkeit" in one click, and a follow-up day takes the patient off the list', async ({ j }) => {
    const { page } = j;
    const counted = upstream.name.startsWith('built-in');
    let before = 0;
    if (counted) {
      await signInAs(page, upstream.accounts.health, upstream.password);
      before = await coachingsToday(page);
      await signOut(page);
    }
    await signInAs(page, upstream.accounts.coach, upstream.password);
    const section = page.locator('section.dashboard-attention');
    const rows = section.locator('li.worklist-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBeGreaterThanOrEqual(2);
    // The day evaluations' signals come in above the worklist after it has drawn: act once they are there.
    await expect.poll(() => section.locator('.my-day-check').textContent()).toMatch(/geprüft\.$|nicht lesbar\.$/);
    await j.idle();
    await j.screen('worklist');

    // One click: reached.
    const first = rows.nth(0);
    const firstId = decodeURIComponent((await first.getByRole('link').first().getAttribute('href'))!.split('/').pop()!);
    await first.getByRole('button', { name: 'Erreicht', exact: true }).click();
    await first.getByText(/^Anruf erfasst um .* \(erreicht\)$/).waitFor();
    const reached = (await calls(page, firstId)).at(-1)!;
    // No length given: a held call of 0 minutes.
    expect(reached.data).toMatchObject({ type: 'phone-coaching', kind: 'call-reached', done: true, durationMinutes: 0 });
    expect(reached.data.start.slice(0, 10)).toBe(today());

    // With a note and a follow-up day: not reached; the patient leaves the list until then.
    const second = rows.nth(1);
    const secondName = (await second.getByRole('link').first().textContent())!;
    const secondId = decodeURIComponent((await second.getByRole('link').first().getAttribute('href'))!.split('/').pop()!);
    await second.getByLabel('Notiz zum Anruf (optional)').fill('Mailbox, Rückruf erbeten.');
    await second.getByLabel('Wiedervorlage am').fill(inDays(3));
    await j.screen('worklist with note and follow-up');
    await second.getByRole('button', { name: 'Nicht erreicht' }).click();
    await second.getByText(/^Anruf erfasst um .* \(nicht erreicht\) Wiedervorlage am /).waitFor();
    const missed = (await calls(page, secondId)).at(-1)!;
    expect(missed.data).toMatchObject({ type: 'phone-coaching', done: false, durationMinutes: 0, notes: 'Mailbox, Rückruf erbeten.' });
    expect((await apiInPage<{ followUpAt?: string }>(page, 'GET', `/patients/${secondId}`)).followUpAt).toBe(inDays(3));
    await j.idle();
    await j.screen('after the follow-up');

    // Still off the list after a reload; the one reached is still there (no data from the app yet).
    await page.reload();
    await rows.first().waitFor();
    expect(await section.getByRole('link', { name: secondName, exact: true }).count()).toBe(0);
    // Put the follow-up back, so the journey can run again on the same data.
    await apiInPage(page, 'PATCH', `/patients/${secondId}`, { followUpAt: null });

    if (counted) {
      // Controlling counts the reached call as a phone coaching, and not the one that did not reach anyone.
      await signOut(page);
      await signInAs(page, upstream.accounts.health, upstream.password);
      expect(await coachingsToday(page)).toBe(before + 1);
    }
  });
});

import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { apiInPage, signIn } from '../helpers/e2e-api.ts';
import { forEachUpstream } from '../helpers/e2e-upstreams.ts';

interface EventRecord {
  id: string;
  data: { kind?: string; done: boolean; notes: string; durationMinutes: number };
}

const rowId = async (row: Locator) => decodeURIComponent((await row.getByRole('link').first().getAttribute('href'))!.split('/').pop()!);
const calls = (page: Page, patientId: string) =>
  apiInPage<EventRecord[]>(page, 'GET', `/patients/${patientId}/sync-db/event`).then((records) => records.filter((r) => r.id.startsWith('call-')));

forEachUpstream((upstream, journey) => {
  journey('a call with its note is in the Chronik and the printed record; a call can be undone; an offline call is kept and sent later', async ({ j }) => {
    const { page, context } = j;
    const note = `Schläft schlecht, Hausarzt ist informiert (${randomUUID().slice(0, 6)}).`;
    await page.goto('/login');
    await signIn(page, upstream.accounts.coach, upstream.password);
    await page.waitForURL('**/dashboard');
    const rows = page.locator('section.dashboard-attention li.worklist-row');
    await rows.first().waitFor();
    // The day evaluations are read after the dashboard has drawn, and their signals come in above the worklist:
    // act once they are there, as a person does once the screen stands still (on a busy machine they come late).
    await expect.poll(() => page.locator('section.dashboard-attention .my-day-check').textContent()).toMatch(/geprüft\.$|nicht lesbar\.$/);
    expect(await rows.count()).toBeGreaterThanOrEqual(2);

    // A reached call with a note and a length.
    const first = rows.nth(0);
    const firstId = await rowId(first);
    await first.getByLabel('Notiz zum Anruf (optional)').fill(note);
    await first.getByLabel('Dauer in Minuten (optional)').fill('12');
    await first.getByRole('button', { name: 'Erreicht', exact: true }).click();
    await first.getByText(/^Anruf erfasst um \d{2}:\d{2} \(erreicht\)$/).waitFor();
    await j.screen('call recorded');

    // A call recorded by mistake, taken back.
    const second = rows.nth(1);
    const secondId = await rowId(second);
    const before = (await calls(page, secondId)).length;
    await second.getByRole('button', { name: 'Nicht erreicht' }).click();
    await second.getByRole('button', { name: 'Rückgängig' }).click();
    await second.getByRole('button', { name: 'Nicht erreicht' }).waitFor();
    expect((await calls(page, secondId)).filter((c) => c.data.kind !== 'call-withdrawn')).toHaveLength(before);

    // Offline: the call stays pending with its note, and goes out once the line is back.
    const third = second;
    const thirdId = secondId;
    const offlineNote = `Im Funkloch notiert (${randomUUID().slice(0, 6)}).`;
    await third.getByLabel('Notiz zum Anruf (optional)').fill(offlineNote);
    j.provoke({ url: /\/v2\/patients\/[^/]+\/sync-db\/event$/, method: 'PUT' });
    j.provoke({ url: /\/healthz$/ });
    await context.setOffline(true);
    const probeFailed = page.waitForEvent('requestfailed', (request) => request.url().endsWith('/healthz'));
    await third.getByRole('button', { name: 'Erreicht', exact: true }).click();
    await third
      .getByRole('alert')
      .getByText(/^Der Anruf ist noch nicht gespeichert/)
      .waitFor();
    expect(await third.getByLabel('Notiz zum Anruf (optional)').inputValue()).toBe(offlineNote);
    await probeFailed;
    await j.screen('call pending offline');
    await context.setOffline(false);
    await third.getByText(/^Anruf erfasst um /).waitFor();
    const sent = (await calls(page, thirdId)).filter((c) => c.data.notes === offlineNote);
    expect(sent).toHaveLength(1);

    // The note in the patient's Chronik, with outcome and length.
    await page.goto(`/patient/${encodeURIComponent(firstId)}?tab=timeline`);
    const entry = page.locator('.timeline-list > li', { hasText: note });
    await entry.waitFor();
    expect(await entry.textContent()).toMatch(/Anruf · .*Telefonat \(erreicht\) · 12 Min\./);
    const tabs = page.getByRole('navigation', { name: 'Bereiche der Patientenakte' });
    expect(await tabs.getByRole('link', { name: 'Chronik' }).getAttribute('aria-current')).toBe('page');
    // "Verlauf" stays the change history, where the API keeps one.
    if (upstream.auditLog) await tabs.getByRole('link', { name: 'Verlauf' }).waitFor();
    await j.screen('chronik');

    // And in the printed record.
    const [print] = await Promise.all([context.waitForEvent('page'), page.getByRole('button', { name: 'Akte drucken' }).click()]);
    await print.waitForURL((url) => url.pathname === '/print/patient', { waitUntil: 'commit' });
    await print.locator('.timeline-list > li', { hasText: note }).waitFor();
    await j.screen('printed record with the call', print);
  });
});

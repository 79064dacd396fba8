import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { apiInPage, signIn } from '../helpers/e2e-api.ts';
import { forEachUpstream } from '../helpers/e2e-upstreams.ts';

interface Listed {
  id: string | number;
  firstName: string;
  lastName: string;
}

async function firstPatient(page: Page): Promise<Listed> {
  const filter = encodeURIComponent(JSON.stringify({ order: ['lastName DESC', 'firstName ASC'], limit: 1 }));
  return (await apiInPage<Listed[]>(page, 'GET', `/patients?filter=${filter}`))[0];
}

async function signInAs(page: Page, email: string, password: string) {
  await page.goto('/login');
  await signIn(page, email, password);
  await page.waitForURL('**/dashboard');
}

forEachUpstream((upstream, journey) => {
  journey('an edited note shows what it said before, a deleted one stays visible to administrators, and the record has a Verlauf', async ({ j }) => {
    const { page } = j;
    const probes: number[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/v2/audit-log') probes.push(response.status());
    });
    await signInAs(page, upstream.accounts.coach, upstream.password);
    const patient = await firstPatient(page);
    const record = `/patient/${patient.id}`;
    const tag = randomUUID().slice(0, 6);
    const first = `Telefonat: Schlaf schlecht (${tag}).`;
    const second = `Telefonat: Schlaf schlecht, Termin beim Hausarzt vereinbart (${tag}).`;

    await page.goto(`${record}?tab=comments`);
    await page.getByLabel('Neuer Kommentar').fill(first);
    await page.getByRole('button', { name: 'Kommentar speichern' }).click();
    // The newest note comes first (its text is not in the item while it is being edited, so it is found by place).
    const item = page.locator('.patient-comments > ol.comment-list > li.comment').first();
    await item.getByText(first).waitFor();
    await item.getByRole('button', { name: 'Bearbeiten' }).click();
    await item.getByLabel('Kommentar bearbeiten').fill(second);
    await item.getByRole('button', { name: 'Änderung speichern' }).click();
    await item.getByText(second).waitFor();

    if (upstream.auditLog) {
      // The earlier version, with who wrote it and when.
      await item.getByText('Frühere Fassungen').click();
      await item.getByText(first).waitFor();
      await item.getByText(/Fassung vom .*, von /).waitFor();
      await j.idle();
      await j.screen('earlier versions of a note');

      // Verlauf: a change of the master data, who made it and when.
      await page.getByRole('link', { name: 'Übersicht' }).click();
      await page.getByRole('button', { name: 'Bearbeiten' }).click();
      const clinic = `Reha-Zentrum ${tag}`;
      await page.getByLabel('Reha-Klinik').fill(clinic);
      await page.getByRole('button', { name: 'Änderungen speichern' }).click();
      await page.getByText('Die Stammdaten wurden gespeichert.').waitFor();
      await page.getByRole('link', { name: 'Verlauf' }).click();
      const entry = page.locator('.history-list > li').first();
      await entry.getByText('Stammdaten geändert').waitFor();
      await entry.getByText(clinic).waitFor();
      await j.idle();
      await j.screen('Verlauf of the record');
    } else {
      // Without an audit log: no Verlauf tab and no versions, and nothing broken.
      await j.idle();
      expect(probes).toEqual([404]);
      expect(await page.getByRole('link', { name: 'Verlauf' }).count()).toBe(0);
      expect(await item.getByText('Frühere Fassungen').count()).toBe(0);
      await j.screen('no audit log: no Verlauf');
    }

    // The author deletes the note: gone for coaches.
    await page.goto(`${record}?tab=comments`);
    await item.getByText(second).waitFor();
    await item.getByRole('button', { name: 'Löschen' }).click();
    await page.getByRole('button', { name: 'Endgültig löschen' }).click();
    await page.getByText(second).waitFor({ state: 'detached' });

    // An administrator still sees that it was there, who deleted it and when (where the API keeps deleted notes).
    await page.getByRole('button', { name: 'Abmelden' }).click();
    await page.waitForURL('**/login');
    await signInAs(page, upstream.accounts.admin, upstream.password);
    await page.goto(`${record}?tab=comments`);
    await page.getByRole('heading', { name: 'Kommentare', level: 2, exact: true }).waitFor();
    await j.idle();
    if (upstream.auditLog) {
      const deleted = page.locator('.deleted-comments li', { hasText: tag });
      await deleted.getByText(/Kommentar gelöscht von .* am /).waitFor();
      await deleted.getByText(second).waitFor();
      await j.screen('deleted note seen by an administrator');
    } else {
      expect(await page.getByRole('heading', { name: /Gelöschte Kommentare/ }).count()).toBe(0);
      expect(await page.getByText(second).count()).toBe(0);
    }
  });
});

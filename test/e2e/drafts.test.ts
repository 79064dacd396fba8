import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { signIn } from '../helpers/e2e-api.ts';
import { draftStored, firstPatient, reloadPast } from '../helpers/e2e-drafts.ts';
import { forEachUpstream } from '../helpers/e2e-upstreams.ts';

forEachUpstream((upstream, journey) => {
  journey('keeps what was typed through a reload, asks before leaving, and drops the draft once saved', async ({ j }) => {
    const { page } = j;
    await page.goto('/login');
    await signIn(page, upstream.accounts.coach, upstream.password);
    await page.waitForURL('**/dashboard');
    const patient = await firstPatient(page);
    const record = `/patient/${patient.id}`;

    // A comment typed, then the page reloaded: the text is there again.
    const text = `Rückruf vereinbart, Angehörige informiert (${randomUUID().slice(0, 4)}).`;
    await page.goto(record);
    await page.getByRole('link', { name: 'Kommentare' }).click();
    await page.getByLabel('Neuer Kommentar').fill(text);
    // Back (the browser's button) asks too; staying puts the address back.
    let asked = '';
    page.once('dialog', (dialog) => {
      asked = dialog.message();
      void dialog.dismiss();
    });
    await page.evaluate(() => history.back());
    await expect.poll(() => asked).toContain('noch nicht gespeichert');
    await expect.poll(() => new URL(page.url()).pathname).toBe(record);
    expect(await page.getByLabel('Neuer Kommentar').inputValue()).toBe(text);
    expect(new URL(page.url()).searchParams.get('tab')).toBe('comments');

    // A draft survives a reload once it is sealed and stored (the key is asked for when a field gets focus; a test
    // types faster than a person can).
    await draftStored(page);
    await reloadPast(page);
    await expect.poll(() => page.getByLabel('Neuer Kommentar').inputValue()).toBe(text);
    await j.idle();
    await j.screen('comment draft after a reload');

    // Leaving the screen asks first; staying keeps screen and text.
    let question = '';
    page.once('dialog', (dialog) => {
      question = dialog.message();
      void dialog.dismiss();
    });
    await page.getByRole('link', { name: 'Zur Patientenliste' }).click();
    await expect.poll(() => question).toContain('noch nicht gespeichert');
    expect(new URL(page.url()).pathname).toBe(record);
    expect(await page.getByLabel('Neuer Kommentar').inputValue()).toBe(text);

    // Master data: an edited phone number survives the reload, and the save removes the draft.
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('link', { name: 'Übersicht' }).click();
    await page.waitForURL((url) => url.pathname === record && !url.search);
    await page.getByRole('button', { name: 'Bearbeiten' }).click();
    const phone = `0931 ${Math.floor(100000 + Math.random() * 899999)}`;
    await page.getByRole('textbox', { name: 'Telefon' }).fill(phone);
    await draftStored(page, ':master-data');
    await reloadPast(page);
    await page.getByText('Nicht gespeicherte Änderungen wiederhergestellt.').waitFor();
    expect(await page.getByRole('textbox', { name: 'Telefon' }).inputValue()).toBe(phone);
    await j.idle();
    await j.screen('master data draft after a reload');
    await page.getByRole('button', { name: 'Änderungen speichern' }).click();
    await page.getByText('Die Stammdaten wurden gespeichert.').waitFor();
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('draft:') && k.endsWith(':master-data')))).toEqual([]);

    // The closing assessment survives switching tabs.
    await page.getByRole('link', { name: 'Abschlussbewertung' }).click();
    const summary = page.getByLabel('Zusammenfassung');
    await summary.fill('Ziele weitgehend erreicht, Rückkehr an den Arbeitsplatz geplant.');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('link', { name: 'Termine' }).click();
    await page.getByRole('heading', { name: 'Termine', level: 2 }).waitFor();
    await page.getByRole('link', { name: 'Abschlussbewertung' }).click();
    await expect.poll(() => summary.inputValue()).toBe('Ziele weitgehend erreicht, Rückkehr an den Arbeitsplatz geplant.');

    // Signing out ends the session and every draft with it.
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Abmelden' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('draft:')))).toEqual([]);
  });
});

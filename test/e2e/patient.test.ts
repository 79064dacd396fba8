import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { apiInPage, signIn } from '../helpers/e2e-api.ts';
import { forEachUpstream } from '../helpers/e2e-upstreams.ts';

forEachUpstream((upstream, journey) => {
  journey('creates a patient, writes a comment on the record and prints the record', async ({ j }) => {
    const { page, context } = j;
    const lastName = `Testmann-${randomUUID().slice(0, 6)}`;
    const comment = `Telefonat geführt, Patient ist motiviert (${randomUUID().slice(0, 4)}).`;
    await page.goto('/login');
    await signIn(page, upstream.accounts.coach, upstream.password);
    await page.waitForURL('**/dashboard');
    await page.goto('/patient');
    await page
      .getByRole('table', { name: 'Patientenliste' })
      .or(page.getByText('Noch keine Patienten', { exact: false }))
      .first()
      .waitFor();
    await j.screen('patient list');

    await page
      .getByRole('link', { name: 'Patient anlegen' })
      .or(page.getByRole('button', { name: 'Patient anlegen' }))
      .first()
      .click();
    await page.getByLabel('Vorname').fill('Theo');
    await page.getByLabel('Nachname').fill(lastName);
    await page.getByLabel('Geburtsdatum').fill('1961-04-12');
    await page.getByLabel('Nachsorge ab').fill('2026-10-01');
    await page.getByLabel('Nachsorge bis').fill('2027-03-31');
    await j.screen('create patient form');
    await page.locator('form.patient-form').getByRole('button', { name: 'Patient anlegen' }).click();
    // /patient/new is the form itself; the record has the new id.
    await page.waitForURL((url) => /^\/patient\/[^/]+$/.test(url.pathname) && url.pathname !== '/patient/new');
    const patientId = new URL(page.url()).pathname.split('/')[2];
    await page
      .getByRole('heading', { name: new RegExp(lastName) })
      .first()
      .waitFor();
    await j.screen('new patient record');

    await page
      .getByRole('tab', { name: 'Kommentare' })
      .or(page.getByRole('link', { name: 'Kommentare' }))
      .first()
      .click();
    await page.getByLabel('Neuer Kommentar').fill(comment);
    await page.getByRole('button', { name: 'Kommentar speichern' }).click();
    await page.getByText(comment).waitFor();
    await expect.poll(() => page.getByLabel('Neuer Kommentar').inputValue()).toBe('');
    await j.screen('comment saved');

    // An appointment: an upstream may answer the PUT with the patient rather than the list; saved is saved.
    await page.goto(`/patient/${encodeURIComponent(patientId)}?tab=appointments`);
    await page.getByRole('heading', { name: 'Termine', level: 2 }).waitFor();
    await page.getByLabel('Beginn').fill('2026-12-14T10:30');
    await page.getByRole('button', { name: 'Termin eintragen' }).click();
    await expect
      .poll(async () => (await apiInPage<{ appointments?: unknown[] }>(page, 'GET', `/patients/${encodeURIComponent(patientId)}`)).appointments?.length)
      .toBe(1);
    await j.idle();
    expect(await page.getByText('Die Termine wurden nicht gespeichert', { exact: false }).count()).toBe(0);
    await page
      .getByRole('button', { name: /^Termin am .* entfernen$/ })
      .first()
      .waitFor();
    await j.screen('appointment saved');

    // A new patient has no evaluation form yet: an empty form, which the first save creates.
    await page.getByRole('link', { name: 'Abschlussbewertung' }).click();
    const summary = page.getByLabel('Zusammenfassung');
    expect(await summary.inputValue()).toBe('');
    await summary.fill('Ziele erreicht.');
    await page.getByRole('button', { name: 'Bewertung speichern' }).click();
    await page.getByText('Die Bewertung wurde gespeichert.').waitFor();
    await j.screen('first evaluation form saved');

    const [print] = await Promise.all([context.waitForEvent('page'), page.getByRole('button', { name: 'Akte drucken' }).click()]);
    // The content below is what matters; the popup's load event can trail far behind on a busy machine.
    await print.waitForURL((url) => url.pathname === '/print/patient' && url.searchParams.get('id') === patientId, { waitUntil: 'commit' });
    await print.getByText(lastName, { exact: false }).first().waitFor();
    await print.getByText(comment).waitFor();
    await j.screen('printable record', print);
  });
});

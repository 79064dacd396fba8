import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { signIn } from '../helpers/e2e-api.ts';
import { forEachUpstream } from '../helpers/e2e-upstreams.ts';

forEachUpstream((upstream, journey) => {
  journey('lets an administrator create a coach and lock them, after which that coach cannot sign in', async ({ j }) => {
    const { page } = j;
    const email = `neu-${randomUUID().slice(0, 8)}@example.org`;
    const password = 'Start-Passwort-7';
    const name = 'Nora Neumann';
    const listed = 'Neumann, Nora';
    j.provoke({ url: /\/v2\/auth\/login$/, status: 403 });

    await page.goto('/login');
    await signIn(page, upstream.accounts.admin, upstream.password);
    await page.waitForURL('**/dashboard');
    await page.getByRole('button', { name: 'Menü ein- oder ausblenden' }).click();
    const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
    await nav.getByRole('button', { name: 'Verwaltung' }).click();
    await nav.getByRole('link', { name: 'Coaches verwalten' }).click();
    await page.waitForURL('**/admin**');
    await page.getByRole('button', { name: 'Coach anlegen' }).click();
    const form = page.getByRole('dialog', { name: 'Neuen Coach anlegen' });
    await form.getByLabel('Vorname').fill('Nora');
    await form.getByLabel('Nachname').fill('Neumann');
    await form.getByRole('textbox', { name: /^E-Mail/ }).fill(email);
    await form.getByLabel(/^Startpasswort/).fill(password);
    await j.screen('create coach dialog');
    await form.getByRole('button', { name: 'Coach anlegen' }).click();
    await page.getByText(`${name} wurde angelegt.`).waitFor();
    await j.screen('coach created');

    // The new account works before it is locked.
    await j.idle();
    await page.getByRole('button', { name: 'Abmelden' }).click();
    await page.waitForURL('**/login');
    await signIn(page, email, password);
    await page.waitForURL('**/dashboard');
    await j.idle();
    await page.getByRole('button', { name: 'Abmelden' }).click();
    await page.waitForURL('**/login');

    await signIn(page, upstream.accounts.admin, upstream.password);
    await page.waitForURL('**/dashboard');
    await page.goto('/admin');
    await page.getByRole('link', { name: listed }).click();
    await page.waitForURL(/\/admin\/coaches\//);

    // A change sends only the changed field (PATCH): a PUT replaces the whole coach, and LoopBack then refuses a User
    // without its password (422). The sign-in below, with the start password, shows the password was kept.
    const writes: { method: string; body: unknown }[] = [];
    page.on('request', (request) => {
      if (/\/v2\/coaches\/[^/?]+$/.test(request.url()) && request.method() !== 'GET') writes.push({ method: request.method(), body: request.postDataJSON() });
    });
    const actions = page.getByRole('group', { name: 'Aktionen für diesen Coach' });
    await actions.getByRole('button', { name: 'Bearbeiten' }).click();
    const edit = page.getByRole('dialog', { name: 'Coach bearbeiten' });
    await edit.getByRole('textbox', { name: /^Telefon/ }).fill('040 123 456');
    await edit.getByRole('button', { name: 'Speichern' }).click();
    await page.getByText(`Die Änderungen an ${name} wurden gespeichert.`).waitFor();
    expect(writes).toEqual([{ method: 'PATCH', body: { phone: '040 123 456' } }]);
    await j.screen('coach saved');

    await actions.getByRole('button', { name: 'Sperren' }).click();
    const confirm = page.getByRole('dialog', { name: 'Coach sperren?' }).or(page.getByRole('alertdialog', { name: 'Coach sperren?' }));
    await confirm.getByRole('button', { name: 'Sperren' }).click();
    await page.getByText(`${name} ist gesperrt.`).waitFor();
    await j.screen('coach locked');

    await j.idle();
    await page.getByRole('button', { name: 'Abmelden' }).click();
    await page.waitForURL('**/login');
    await signIn(page, email, password);
    const alert = page.getByRole('alertdialog').or(page.getByRole('dialog'));
    await expect.poll(() => alert.innerText()).toMatch(/Login Fehler[\s\S]*Dieses Konto wurde gesperrt!/);
    await j.screen('locked coach cannot sign in');
    expect(new URL(page.url()).pathname).toBe('/login');
  });
});

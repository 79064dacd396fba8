import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { apiInPage, signIn } from '../helpers/e2e-api.ts';
import { forEachUpstream } from '../helpers/e2e-upstreams.ts';

forEachUpstream((upstream, journey) => {
  journey('resets a forgotten password through the mailed link and signs in with the new one', async ({ j }) => {
    const { page } = j;
    // Setup: a coach of its own, so no other journey's password changes.
    const email = `reset-${randomUUID().slice(0, 8)}@example.org`;
    await page.goto('/login');
    await signIn(page, upstream.accounts.admin, upstream.password);
    await page.waitForURL('**/dashboard');
    await apiInPage(page, 'POST', '/coaches', { email, firstName: 'Rita', lastName: 'Reset', password: 'Altes-Passwort-1' });
    await j.idle();
    await page.getByRole('button', { name: 'Abmelden' }).click();
    await page.waitForURL('**/login');

    await page.getByRole('link', { name: 'Passwort vergessen?' }).click();
    await page.waitForURL('**/coach-reset-password');
    await expect.poll(() => page.getByRole('heading', { name: 'Ihre E-Mail Adresse' }).count()).toBe(1);
    await j.screen('reset request');
    const requestedAt = Date.now();
    await page.getByPlaceholder('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Passwort zurücksetzen' }).click();
    const success = page.getByRole('alertdialog').or(page.getByRole('dialog'));
    await expect
      .poll(() => success.innerText())
      .toMatch(/Erfolg[\s\S]*Ihnen werden weitere Anweisungen an die eingegebene E-Mail gesendet, wenn das Konto existiert\./);
    await j.screen('reset requested');
    await success.getByRole('button').first().click();
    await page.waitForURL('**/login');

    const link = await upstream.resetLink(email, requestedAt);
    expect(new URL(link).origin).toBe(j.origin);
    await page.goto(link);
    await expect.poll(() => page.getByRole('heading', { name: 'Neues Passwort' }).count()).toBe(1);
    await j.screen('new password');
    await page.getByPlaceholder('Ihr neues Passwort', { exact: true }).fill('Neues-Passwort-2');
    await page.getByPlaceholder('Wiederholen Sie Ihr neues Passwort', { exact: true }).fill('Neues-Passwort-2');
    await page.getByRole('button', { name: 'Passwort ändern' }).click();
    await page.waitForURL('**/login');

    await signIn(page, email, 'Neues-Passwort-2');
    await page.waitForURL('**/dashboard');
    await j.screen('signed in with the new password');
  });
});

import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { apiInPage, signIn } from '../helpers/e2e-api.ts';
import { forEachUpstream } from '../helpers/e2e-upstreams.ts';

interface Listed {
  id: string | number;
  firstName: string;
  lastName: string;
  patientCode: string;
  phone?: string | null;
}

/** How a coach in a hurry types a name: lower case, no umlauts or accents. */
const hurried = (name: string) => name.toLowerCase().replace(/ß/g, 'ss').normalize('NFKD').replace(/\p{M}/gu, '');

async function someoneWithPhone(page: Page): Promise<Listed> {
  const filter = encodeURIComponent(JSON.stringify({ order: ['lastName ASC', 'firstName ASC'], limit: 100 }));
  const patients = await apiInPage<Listed[]>(page, 'GET', `/patients?filter=${filter}`);
  const found = patients.find((p) => p.lastName && p.phone && String(p.phone).replace(/\D/g, '').length >= 6);
  if (!found) throw new Error('no patient with a name and a phone number on this upstream');
  return found;
}

forEachUpstream((upstream, journey) => {
  journey('finds any patient from any screen with "/" by name, code or phone, with the keyboard only', async ({ j }) => {
    const { page } = j;
    await page.goto('/login');
    await signIn(page, upstream.accounts.coach, upstream.password);
    await page.waitForURL('**/dashboard');
    const target = await someoneWithPhone(page);
    const name = new RegExp(`${target.lastName}, ${target.firstName}`);

    // From the help page, by name as typed in a hurry.
    await page.goto('/information');
    await page.getByRole('heading', { level: 1, name: 'Hilfe & Unterlagen & Infos' }).waitFor();
    await page.keyboard.press('/');
    const dialog = page.getByRole('dialog', { name: 'Patientin oder Patient suchen' });
    const field = dialog.getByLabel('Name, Patientencode oder Telefon');
    await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type(hurried(target.lastName));
    const result = dialog.getByRole('link', { name });
    await result.waitFor();
    await j.idle();
    await j.screen('quick search by name');
    await page.keyboard.press('ArrowDown');
    await expect
      .poll(() =>
        dialog
          .getByRole('link')
          .first()
          .evaluate((el) => el === document.activeElement),
      )
      .toBe(true);
    while (!(await result.evaluate((el) => el === document.activeElement))) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/patient/${target.id}`);
    await page.getByRole('heading', { level: 1, name: `${target.firstName} ${target.lastName}` }).waitFor();
    expect(await dialog.isVisible()).toBe(false);

    // From the record, by code: Enter opens the first result.
    await page.keyboard.press('/');
    await field.waitFor();
    await page.keyboard.type(target.patientCode);
    await dialog.getByRole('link', { name: new RegExp(target.patientCode) }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/patient/${target.id}`);

    // "/" typed into a field is text.
    await page.getByRole('link', { name: 'Kommentare' }).click();
    const note = page.getByLabel('Neuer Kommentar');
    await note.fill('Termin 1/2');
    expect(await dialog.isVisible()).toBe(false);
    await note.fill('');

    // The dashboard has the same search, here by the last digits of the phone number.
    await page.goto('/dashboard');
    const digits = String(target.phone).replace(/\D/g, '').slice(-6);
    await page.getByLabel('Name, Patientencode oder Telefon').fill(digits);
    await page.getByRole('link', { name }).waitFor();
    await j.idle();
    await j.screen('dashboard search by phone');
  });
});

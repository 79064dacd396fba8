import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { apiInPage, signIn } from '../helpers/e2e-api.ts';
import { forEachUpstream } from '../helpers/e2e-upstreams.ts';

interface Created {
  id: string | number;
}

/** Two patients of one name, Müller with an umlaut, born years apart: only the date of birth tells them apart. */
const TWINS = [
  { birthDate: '1958-03-12', shown: '12.03.1958', patientCode: 'QS-7301' },
  { birthDate: '1984-10-02', shown: '02.10.1984', patientCode: 'QS-7302' },
];

async function addTwins(page: Page): Promise<Created[]> {
  const created: Created[] = [];
  for (const twin of TWINS) {
    created.push(
      await apiInPage<Created>(page, 'POST', '/patients', {
        firstName: 'Ottilie',
        lastName: 'Müller',
        birthDate: twin.birthDate,
        patientCode: twin.patientCode,
        aftercareStart: '2026-01-01',
        aftercareEnd: '2099-12-31',
      }),
    );
  }
  return created;
}

forEachUpstream((upstream, journey) => {
  journey('"mueller" finds Müller in the quick search, and two of one name are told apart by their date of birth', async ({ j }) => {
    const { page } = j;
    await page.goto('/login');
    await signIn(page, upstream.accounts.admin, upstream.password);
    await page.waitForURL('**/dashboard');
    const [older, younger] = await addTwins(page);

    // Typed as on a keyboard without umlauts.
    await page.keyboard.press('/');
    const dialog = page.getByRole('dialog', { name: 'Patientin oder Patient suchen' });
    await dialog.getByLabel('Name, Patientencode oder Telefon').fill('mueller ottilie');
    const results = dialog.getByRole('list', { name: 'Suchergebnisse' });
    const first = results.getByRole('link', { name: new RegExp(`Müller, Ottilie Geboren ${TWINS[0].shown} \\(\\d+\\)`) });
    const second = results.getByRole('link', { name: new RegExp(`Müller, Ottilie Geboren ${TWINS[1].shown} \\(\\d+\\)`) });
    await first.waitFor();
    await second.waitFor();
    expect(await results.getByRole('link').count()).toBe(2);
    await j.idle();
    await j.screen('quick search tells two Müller apart');

    // The younger one it is: her record says so in the header.
    await second.click();
    await page.waitForURL(`**/patient/${younger.id}`);
    await page.getByRole('heading', { level: 1, name: 'Ottilie Müller' }).waitFor();
    const header = page.locator('.patient-header');
    await expect.poll(() => header.getByText(new RegExp(`${TWINS[1].shown} \\(\\d+\\)`)).count()).toBe(1);

    // A code read out on the phone and typed without its hyphen.
    await page.keyboard.press('/');
    await dialog.getByLabel('Name, Patientencode oder Telefon').fill(TWINS[0].patientCode.replace('-', '').toLowerCase());
    await results.getByRole('link', { name: new RegExp(TWINS[0].patientCode) }).click();
    await page.waitForURL(`**/patient/${older.id}`);
    await expect.poll(() => header.getByText(new RegExp(`${TWINS[0].shown} \\(\\d+\\)`)).count()).toBe(1);
  });
});

import { expect } from 'vitest';
import { signIn } from '../helpers/e2e-api.ts';
import { forEachUpstream } from '../helpers/e2e-upstreams.ts';

// The language menu is named in the active language plus the visible code ("Sprache: DE"); the logout
// button shows a word in the active language.
const LANGUAGES = [
  { lang: 'en', item: 'English', menu: 'Language: EN', logout: 'Log out', toggle: 'Show or hide the menu' },
  { lang: 'fr', item: 'Français', menu: 'Langue: FR', logout: 'Se déconnecter', toggle: 'Afficher ou masquer le menu' },
  { lang: 'de', item: 'Deutsch', menu: 'Sprache: DE', logout: 'Abmelden', toggle: 'Menü ein- oder ausblenden' },
] as const;

forEachUpstream((upstream, journey) => {
  journey('switches the interface to English, to French and back to German at once', async ({ j }) => {
    const { page } = j;
    await page.goto('/login');
    await signIn(page, upstream.accounts.coach, upstream.password);
    await page.waitForURL('**/dashboard');
    let menu = 'Sprache: DE';
    for (const target of LANGUAGES) {
      await page.getByRole('button', { name: menu, exact: true }).click();
      await page.getByRole('menuitemradio', { name: target.item }).click();
      await page.getByRole('button', { name: target.logout }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(target.lang);
      expect(await page.getByRole('button', { name: target.toggle }).count()).toBe(1);
      await j.screen(`dashboard in ${target.lang}`);
      menu = target.menu;
    }
  });

  journey('keeps the chosen language after a reload', async ({ j }) => {
    const { page } = j;
    await page.goto('/login');
    await signIn(page, upstream.accounts.coach, upstream.password);
    await page.waitForURL('**/dashboard');
    await page.getByRole('button', { name: 'Sprache: DE', exact: true }).click();
    await page.getByRole('menuitemradio', { name: 'English' }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await j.screen('dashboard in en after reload');
  });
});

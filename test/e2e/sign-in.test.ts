import { expect } from 'vitest';
import { sidebarLinks, signIn } from '../helpers/e2e-api.ts';
import { forEachUpstream } from '../helpers/e2e-upstreams.ts';

const EVERYONE = ['Dashboard -> /dashboard', 'Hilfe & Unterlagen & Infos -> /information', 'News -> /news-dashboard'];
const NEW_USER = 'New User -> /create-access';
const ADMIN = 'Coaches verwalten -> /admin';
const STATS = 'Controlling -> /stats';
const EXPORT = 'Export -> /export';

// docs/product.md#roles, with the project's decision for Export (everyone who may export: every signed-in coach, by
// can('export') in client/domain/permissions.ts) and enable_creating_new_patients = true on both test instances
// (so every coach sees "New User").
const EXPECTED = {
  admin: [...EVERYONE, NEW_USER, ADMIN, STATS, EXPORT],
  coach: [...EVERYONE, NEW_USER, EXPORT],
  health: [...EVERYONE, NEW_USER, STATS, EXPORT],
};

forEachUpstream((upstream, journey) => {
  for (const [role, expected] of Object.entries(EXPECTED) as [keyof typeof EXPECTED, string[]][]) {
    journey(`signs in as the ${role} and shows exactly the sidebar that account may see`, async ({ j }) => {
      await j.page.goto('/login');
      await j.screen('login');
      await signIn(j.page, upstream.accounts[role], upstream.password);
      await j.page.waitForURL('**/dashboard');
      await j.screen('dashboard');
      expect(await sidebarLinks(j.page)).toEqual(expected);
      await j.screen('sidebar open');
    });
  }

  journey('tells the locked account that it is locked and keeps it on the login screen', async ({ j }) => {
    j.provoke({ url: /\/v2\/auth\/login$/, status: 403 });
    await j.page.goto('/login');
    await signIn(j.page, upstream.accounts.locked, upstream.password);
    const dialog = j.page.getByRole('alertdialog').or(j.page.getByRole('dialog'));
    await expect.poll(() => dialog.innerText()).toMatch(/Login Fehler[\s\S]*Dieses Konto wurde gesperrt!/);
    await j.screen('locked alert');
    await dialog.getByRole('button').first().click();
    await dialog.waitFor({ state: 'hidden' });
    expect(new URL(j.page.url()).pathname).toBe('/login');
    expect(await j.page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
  });

  journey('sends a signed-out deep link to the login screen with returnUrl and back there after login', async ({ j }) => {
    await j.page.goto('/news-dashboard?id=abc');
    await j.page.waitForURL(/\/login\?returnUrl=/);
    const returnUrl = new URL(j.page.url()).searchParams.get('returnUrl');
    expect(returnUrl).toBe('/news-dashboard?id=abc');
    await j.screen('login with returnUrl');
    await signIn(j.page, upstream.accounts.coach, upstream.password);
    await j.page.waitForURL((url) => url.pathname === '/news-dashboard');
    expect(new URL(j.page.url()).search).toBe('?id=abc');
    await j.screen('news after login');
  });

  journey('treats a token the upstream no longer accepts as expired: cleared, and the login screen with returnUrl', async ({ j }) => {
    j.provoke({ url: /\/v2\/auth\/me$/, status: 401 });
    await j.page.goto('/login');
    await j.page.evaluate(() => localStorage.setItem('accessToken', 'expired-or-revoked-token'));
    await j.page.goto('/patient');
    await j.page.waitForURL(/\/login\?returnUrl=%2Fpatient$/);
    expect(await j.page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
    await j.screen('login after an expired token');
  });
});

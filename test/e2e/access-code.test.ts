import { expect } from 'vitest';
import { signIn } from '../helpers/e2e-api.ts';
import { forEachUpstream } from '../helpers/e2e-upstreams.ts';

forEachUpstream((upstream, journey) => {
  journey(
    "creates a labelled access code under New User that joins the unused list at once; its print view carries the coach's phone and the app's QR code",
    async ({ j }) => {
      const { page, context } = j;
      await page.goto('/login');
      await signIn(page, upstream.accounts.coach, upstream.password);
      await page.waitForURL('**/dashboard');
      await page.getByRole('button', { name: 'Menü ein- oder ausblenden' }).click();
      await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'New User' }).click();
      await page.waitForURL('**/create-access');
      await page.getByRole('button', { name: 'Zugangscode erstellen' }).waitFor();
      await j.screen('new user');

      const label = 'Herr T., Zimmer 7';
      await page.getByLabel('Für wen ist der Code? (optional)').fill(label);
      await page.getByRole('button', { name: 'Zugangscode erstellen' }).click();
      await page.getByText('Zugangscode erstellt').first().waitFor();
      await j.screen('access code created');

      const [print] = await Promise.all([
        context.waitForEvent('page'),
        page
          .getByRole('link', { name: 'Ausdrucken' })
          .or(page.getByRole('button', { name: 'Ausdrucken' }))
          .first()
          .click(),
      ]);
      await print.waitForURL((url) => url.pathname === '/print/access-code', { waitUntil: 'commit' });
      const code = new URL(print.url()).searchParams.get('code');
      expect(code).toMatch(/\S{4,}/);
      await print.getByRole('heading', { name: 'Ihr Zugangscode' }).waitFor();
      // The code appears, with the print button, only once the server has confirmed it.
      await print.getByRole('button', { name: 'Drucken' }).waitFor();
      // The sheet shows the same code the screen showed (grouping characters aside).
      const sheet = (await print.locator('body').innerText()).replace(/[\s-]/g, '');
      expect(sheet).toContain(code!.replace(/[\s-]/g, ''));
      const screenText = (await page.locator('main').innerText()).replace(/[\s-]/g, '');
      expect(screenText).toContain(code!.replace(/[\s-]/g, ''));
      // The new code is among the unused ones at once, without "Aktualisieren"; with its label where the API keeps one.
      const open = page.getByRole('region', { name: 'Ihre noch nicht benutzten Zugangscodes' });
      expect((await open.innerText()).replace(/[\s-]/g, '')).toContain(code!.replace(/[\s-]/g, ''));
      expect(await open.getByText(label).count()).toBe(upstream.accessCodeExtras ? 1 : 0);
      // The demo coach has a phone and the demo app settings a download link: the sheet names the one and carries the
      // other as a QR code. The LoopBack test data has neither, and the sheet prints without them.
      const qr = print.getByRole('img', { name: 'QR-Code mit der Adresse zum Herunterladen der App' });
      if (upstream.accessCodeExtras) {
        await print
          .getByText(/Telefon: \d/)
          .first()
          .waitFor();
        await qr.waitFor();
      } else expect(await qr.count()).toBe(0);
      await j.screen('access code print view', print);
    },
  );
});

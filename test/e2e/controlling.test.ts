import { expect } from 'vitest';
import { signIn } from '../helpers/e2e-api.ts';
import { forEachUpstream } from '../helpers/e2e-upstreams.ts';

forEachUpstream((upstream, journey) => {
  journey('shows the health manager the patients-in-aftercare and phone-coaching charts', async ({ j }) => {
    const { page } = j;
    await page.goto('/login');
    await signIn(page, upstream.accounts.health, upstream.password);
    await page.waitForURL('**/dashboard');
    await page.getByRole('button', { name: 'Menü ein- oder ausblenden' }).click();
    const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
    await nav.getByRole('button', { name: 'Verwaltung' }).click();
    await nav.getByRole('link', { name: 'Controlling' }).click();
    await page.waitForURL('**/stats**');
    const daily = page.getByRole('img', { name: /Patientinnen und Patienten in Nachsorge/ });
    const calls = page.getByRole('img', { name: /Telefoncoachings/ });
    await daily.first().waitFor();
    await calls.first().waitFor();
    // A drawn chart has data marks in its series (bars, or line segments), not only its frame and axes.
    const marks = (chart: typeof daily) =>
      chart
        .first()
        .evaluate((svg) =>
          [...svg.querySelectorAll('.chart-series rect, .chart-series path')].reduce(
            (sum, mark) => sum + (mark.tagName === 'rect' ? 1 : (mark.getAttribute('d')?.match(/L/g)?.length ?? 0)),
            0,
          ),
        );
    expect(await marks(daily)).toBeGreaterThan(2);
    expect(await marks(calls)).toBeGreaterThan(2);
    await j.screen('controlling');
  });
});

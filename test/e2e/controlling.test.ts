import { expect } from 'vitest';
import { signIn } from '../helpers/e2e-api.ts';
import { csvRecords, downloadText } from '../helpers/e2e-csv.ts';
import { forEachUpstream } from '../helpers/e2e-upstreams.ts';

forEachUpstream((upstream, journey) => {
  journey('the health manager lands on this month’s figures and compares last month in Controlling', async ({ j }) => {
    const { page } = j;
    await page.goto('/login');
    await signIn(page, upstream.accounts.health, upstream.password);
    await page.waitForURL('**/dashboard');
    // The start page is a health manager's: this month's Controlling figures, not an all-zero caseload.
    const month = new Intl.DateTimeFormat('de', { month: 'long', year: 'numeric' }).format(new Date());
    await page.getByRole('heading', { name: `Controlling – ${month}` }).waitFor();
    await page
      .getByText(/gegenüber Vormonat \(vorher/)
      .first()
      .waitFor();
    expect(await page.getByRole('heading', { name: 'Ihre Patienten in Nachsorge' }).count()).toBe(0);
    await j.screen('health manager dashboard');

    await page.getByRole('link', { name: 'Zum Controlling' }).click();
    await page.waitForURL('**/stats?range=thisMonth**');
    expect(await page.getByRole('button', { name: 'Dieser Monat' }).getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('button', { name: 'Letzter Monat' }).click();
    await page.waitForURL('**/stats?range=lastMonth**');
    const active = page.locator('.stats-card', { has: page.getByText('In Nachsorge', { exact: true }) });
    await active.getByText(/gegenüber Vormonat \(vorher \d+\)/).waitFor();
    expect(await active.textContent()).toMatch(/^In Nachsorge\d+Stand \d\d\.\d\d\.\d{4}/);

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

    // Each chart's numbers come as the export's CSV, a line per day of last month.
    const csvButton = page.getByRole('button', { name: 'CSV herunterladen', description: 'Telefoncoachings pro Tag' });
    const [download] = await Promise.all([page.waitForEvent('download'), csvButton.click()]);
    expect(download.suggestedFilename()).toMatch(/^telefoncoachings_\d{4}-\d\d-01_\d{4}-\d\d-\d\d\.csv$/);
    const records = csvRecords(await downloadText(download));
    const now = new Date();
    expect(records[0]).toEqual(['Datum', 'Telefoncoachings', 'Minuten Telefoncoaching']);
    expect(records.length - 1).toBe(new Date(now.getFullYear(), now.getMonth(), 0).getDate());
    await j.screen('controlling last month');
  });
});

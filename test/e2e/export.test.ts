import { expect } from 'vitest';
import { signIn } from '../helpers/e2e-api.ts';
import { csvRecords, downloadText } from '../helpers/e2e-csv.ts';
import { countPatients, forEachUpstream } from '../helpers/e2e-upstreams.ts';

forEachUpstream((upstream, journey) => {
  journey('downloads a CSV of all patients with one row for every patient', async ({ j }) => {
    const { page } = j;
    await page.goto('/login');
    await signIn(page, upstream.accounts.admin, upstream.password);
    await page.waitForURL('**/dashboard');
    const total = await countPatients(page);
    expect(total).toBeGreaterThan(0);

    await page.goto('/export');
    await page
      .getByRole('radio', { name: /Patientinnen und Patienten/ })
      .first()
      .check();
    await j.screen('export form');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV-Datei erstellen' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const records = csvRecords(await downloadText(download));
    // One header line plus one line per patient.
    expect(records.length - 1).toBe(total);
    await page.getByText(`Fertig: ${total.toLocaleString('de-DE')} Zeilen exportiert.`).waitFor();
    await j.screen('export done');
  });
});

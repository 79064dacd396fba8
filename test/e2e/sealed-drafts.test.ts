import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { signIn } from '../helpers/e2e-api.ts';
import { everythingTheBrowserKeeps, firstPatient, reloadPast } from '../helpers/e2e-drafts.ts';
import { forEachUpstream } from '../helpers/e2e-upstreams.ts';

/*
 * Nothing readable left behind (docs/drafts-and-sessions.md): a draft is stored only sealed, under a key the gateway
 * hands out for a live login token; within the session it still comes back after a reload, and once the session
 * has ended neither the browser's storage nor the old token opens it.
 */
forEachUpstream((upstream, journey) => {
  journey('a comment draft is stored only sealed, comes back after a reload, and nothing of it is readable after signing out', async ({ j }) => {
    const { page } = j;
    await page.goto('/login');
    await signIn(page, upstream.accounts.coach, upstream.password);
    await page.waitForURL('**/dashboard');
    const patient = await firstPatient(page);
    const words = ['Panikattacken', 'Schlaflosigkeit', `Merkwort${randomUUID().slice(0, 8)}`];
    const text = `${words[0]} seit der Entlassung, ${words[1]}; Rückruf vereinbart (${words[2]}).`;

    await page.goto(`/patient/${patient.id}`);
    await page.getByRole('link', { name: 'Kommentare' }).click();
    await page.getByLabel('Neuer Kommentar').fill(text);
    const drafts = () => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('draft:')));
    await expect.poll(drafts).toHaveLength(1);
    const stored = await everythingTheBrowserKeeps(page);
    for (const word of words) expect(stored, 'a typed word in the browser storage').not.toContain(word);
    expect(JSON.parse(await page.evaluate((name) => localStorage.getItem(name) ?? '', (await drafts())[0]))).toMatchObject({ v: 1 });

    await reloadPast(page);
    await expect.poll(() => page.getByLabel('Neuer Kommentar').inputValue()).toBe(text);
    for (const word of words) expect(await everythingTheBrowserKeeps(page)).not.toContain(word);
    await j.idle();
    await j.screen('sealed comment draft offered after a reload');

    const token = await page.evaluate(() => localStorage.getItem('accessToken'));
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Abmelden' }).click();
    await page.waitForURL('**/login');
    expect(await drafts()).toEqual([]);
    for (const word of words) expect(await everythingTheBrowserKeeps(page)).not.toContain(word);
    // The ended token no longer gets the key, so even a sealed copy taken before would stay closed.
    j.provoke({ url: /\/session\/draft-key$/, status: 401, method: 'GET' });
    const refused = await page.evaluate(
      async (ended) => (await fetch('/session/draft-key', { headers: { Authorization: `Bearer ${ended}` }, cache: 'no-store' })).status,
      token,
    );
    expect(refused).toBe(401);
  });
});

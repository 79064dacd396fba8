import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

export const DEMO_PASSWORD = 'Demo-Passwort-1';
/** Demo accounts of the built-in upstream (docs/contract.md#demo-accounts). */
export const DEMO = { admin: 'admin@example.org', coach: 'coach@example.org', health: 'health@example.org', locked: 'locked@example.org' } as const;

/**
 * Calls /v2 from inside the page, exactly as the client does: bearer token from localStorage and, on
 * mutating calls, the X-XSRF-TOKEN header copied from the gateway's XSRF-TOKEN cookie. Used for setup
 * steps a journey is not about (the page must have loaded once so the cookie exists).
 */
export async function apiInPage<T = unknown>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  const result = await page.evaluate(
    async ({ method, path, body }) => {
      const token = localStorage.getItem('accessToken');
      const xsrf = document.cookie
        .split(';')
        .map((part) => part.trim().split('='))
        .find(([name]) => name === 'XSRF-TOKEN')?.[1];
      const headers: Record<string, string> = { accept: 'application/json' };
      if (token) headers.authorization = `Bearer ${token}`;
      if (xsrf) headers['x-xsrf-token'] = decodeURIComponent(xsrf);
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`/v2${path}`, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await response.text();
      return { status: response.status, text };
    },
    { method, path, body },
  );
  if (result.status >= 400) throw new Error(`${method} /v2${path} answered ${result.status}: ${result.text}`);
  return (result.text ? JSON.parse(result.text) : undefined) as T;
}

/**
 * Waits for the newest mail to `to` written to DATA_DIR/outbox after `since` (epoch ms) and returns the
 * reset link in it. The built-in upstream writes plain 8-bit .eml files, so the link is in the text as is.
 */
export async function resetLinkFromOutbox(dataDir: string, to: string, since: number, timeout = 10_000): Promise<string> {
  const outbox = join(dataDir, 'outbox');
  const deadline = Date.now() + timeout;
  for (;;) {
    const names = await readdir(outbox).catch(() => [] as string[]);
    for (const name of names
      .filter((n) => n.endsWith('.eml'))
      .sort()
      .reverse()) {
      const file = join(outbox, name);
      if ((await stat(file)).mtimeMs < since - 1000) continue;
      const mail = await readFile(file, 'utf8');
      if (!new RegExp(`^To: .*${to.replace(/[.+]/g, '\\$&')}`, 'mi').test(mail)) continue;
      const link = /https?:\/\/\S+\/reset-password\?\S+/.exec(mail)?.[0];
      if (link) return link;
    }
    if (Date.now() > deadline) throw new Error(`no reset mail to ${to} in ${outbox} within ${timeout} ms`);
    // The file is written by another process; polling the folder is the only signal.
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Fills the German login form and submits it (the screen must be showing). */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.getByLabel('E-Mail', { exact: true }).fill(email);
  await page.getByLabel('Passwort', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Anmelden' }).click();
}

/** Opens the sidebar (and its management submenu) and lists every link as "label -> path". */
export async function sidebarLinks(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
  if (!(await nav.isVisible())) await page.getByRole('button', { name: 'Menü ein- oder ausblenden' }).click();
  await nav.waitFor({ state: 'visible' });
  const management = nav.getByRole('button', { name: 'Verwaltung' });
  if ((await management.count()) > 0 && (await management.getAttribute('aria-expanded')) !== 'true') await management.click();
  const links = nav.getByRole('link');
  const result: string[] = [];
  for (const link of await links.all()) {
    result.push(`${(await link.innerText()).trim()} -> ${await link.getAttribute('href')}`);
  }
  return result;
}

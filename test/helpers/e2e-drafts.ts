import { expect } from 'vitest';
import type { Dialog, Page } from 'playwright-core';
import { apiInPage } from './e2e-api.ts';

/*
 * What the draft journeys (test/e2e/drafts.test.ts, sealed-drafts.test.ts) share: a patient to type about, a
 * reload past the leave guard's question, and everything the browser keeps for the page, to look for typed words.
 */

export interface ListedPatient {
  id: string | number;
  firstName: string;
  lastName: string;
}

/** The first patient of the signed-in coach's list (by name). */
export async function firstPatient(page: Page): Promise<ListedPatient> {
  const filter = encodeURIComponent(JSON.stringify({ order: ['lastName ASC', 'firstName ASC'], limit: 1 }));
  return (await apiInPage<ListedPatient[]>(page, 'GET', `/patients?filter=${filter}`))[0];
}

/** Resolves once a sealed draft (whose name ends with `suffix`) is in localStorage. */
export async function draftStored(page: Page, suffix = ''): Promise<void> {
  await page.waitForFunction((end) => Object.keys(localStorage).some((k) => k.startsWith('draft:') && k.endsWith(end)), suffix);
}

/** Reload, answering the browser's "leave this page?" with yes; resolves once the question was asked. */
export async function reloadPast(page: Page): Promise<void> {
  let asked = false;
  const answer = (dialog: Dialog) => {
    if (dialog.type() === 'beforeunload') asked = true;
    void dialog.accept();
  };
  page.on('dialog', answer);
  await page.reload();
  page.off('dialog', answer);
  expect(asked, 'the browser asked before reloading with unsaved changes').toBe(true);
}

/** Every key and value of localStorage, sessionStorage, every IndexedDB database and the page's cookies, as one text. */
export function everythingTheBrowserKeeps(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const all: string[] = [document.cookie];
    for (const storage of [localStorage, sessionStorage]) {
      for (let i = 0; i < storage.length; i++) all.push(`${storage.key(i)}=${storage.getItem(storage.key(i) ?? '')}`);
    }
    const request = <T>(req: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue;
      const db = await request(indexedDB.open(name));
      for (const store of Array.from(db.objectStoreNames)) {
        const objects = db.transaction(store, 'readonly').objectStore(store);
        all.push(`${name}/${store}`, JSON.stringify(await request(objects.getAllKeys())), JSON.stringify(await request(objects.getAll())));
      }
      db.close();
    }
    return all.join('\n');
  });
}

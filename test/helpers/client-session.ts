import { onTestFinished } from 'vitest';
import type { Me } from '../../contract/schemas/auth.ts';
import { sessionChecked, token, user } from '../../client/state/session.ts';
import { buildMe } from './client-fetch.ts';

/** This tab signed in as `me` with `accessToken`, as the start-up check leaves it (no request made). */
export function signedInTab(accessToken = 'tok', me: Me = buildMe()): void {
  localStorage.setItem('accessToken', accessToken);
  token.value = accessToken;
  user.value = me;
  sessionChecked.value = true;
}

/**
 * Another tab of the browser writes `key` (null: removes it; key null: clears the storage): the browser changes the
 * shared storage and tells this tab with a `storage` event, which happy-dom does not send by itself.
 */
export function otherTab(key: string | null, value: string | null): void {
  const oldValue = key === null ? null : localStorage.getItem(key);
  if (key === null) localStorage.clear();
  else if (value === null) localStorage.removeItem(key);
  else localStorage.setItem(key, value);
  window.dispatchEvent(new StorageEvent('storage', { key, oldValue, newValue: value, storageArea: localStorage, url: location.href }));
}

/** `<meta name="session-idle-minutes" content="...">` as the gateway writes it, for the current test. */
export function idleMinutesMeta(content: string): void {
  const meta = document.createElement('meta');
  meta.name = 'session-idle-minutes';
  meta.content = content;
  document.head.append(meta);
  onTestFinished(() => meta.remove());
}

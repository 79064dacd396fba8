import { onTestFinished } from 'vitest';
import type { Me } from '../../contract/schemas/auth.ts';
import { token, user } from '../../client/state/session.ts';
import { flushDrafts, keepDraft, openDrafts, reloadDraftsForTests, storedDraft } from '../../client/state/sealed-drafts.ts';
import { buildMe } from './client-fetch.ts';

/*
 * Drafts need a live session (client/state/sealed-drafts.ts): a token and a signed-in coach. These helpers give a
 * test one, and look at the drafts as the next screen of the session would.
 */

/**
 * Coach `coachId` (built by buildMe with `me`) signed in with a token of their own until the test ends; the key
 * mockFetch hands out follows the token.
 */
export function signedInCoach(coachId = 'me', me: Partial<Me> = {}): void {
  const sessionToken = `tok-${coachId}`;
  localStorage.setItem('accessToken', sessionToken);
  token.value = sessionToken;
  user.value = buildMe({ ...me, id: coachId });
  onTestFinished(() => {
    token.value = null;
    user.value = null;
  });
}

/** A reload within the session: what was typed is sealed, the tab forgets it, and the shell opens the stored drafts again. */
export async function reloadWithinSession(): Promise<void> {
  await flushDrafts();
  reloadDraftsForTests();
  await openDrafts();
}

/** What a form would find under `name` after a reload within the session. */
export async function offeredAfterReload<T = string>(name: string): Promise<T | null> {
  await reloadWithinSession();
  return storedDraft<T>(name);
}

/** Drafts this session kept before a reload (sealed in storage, then opened again). */
export async function draftsBeforeReload(drafts: Record<string, unknown>): Promise<void> {
  for (const [name, value] of Object.entries(drafts)) keepDraft(name, value);
  await reloadWithinSession();
}

/** Every value in localStorage and sessionStorage, to assert that no typed word is readable there. */
export function everythingStored(): string {
  const all: string[] = [];
  for (const storage of [localStorage, sessionStorage]) {
    for (let i = 0; i < storage.length; i++) {
      const name = storage.key(i) ?? '';
      all.push(`${name}=${storage.getItem(name)}`);
    }
  }
  return all.join('\n');
}

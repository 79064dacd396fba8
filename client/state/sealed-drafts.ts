import { effect } from '@preact/signals-react';
import { DRAFT_PREFIX } from '../lib/drafts.ts';
import { TOKEN_KEY } from '../lib/token.ts';
import { type DraftKeyAnswer, fetchDraftKey } from '../lib/draft-key.ts';
import { envelopeOf, type SealedDraft, seal, unseal } from '../lib/draft-seal.ts';
import { isAuthenticated, token, user } from './session.ts';

/*
 * The drafts of the live session (docs/drafts-and-sessions.md). localStorage holds them only sealed (lib/draft-seal.ts)
 * under a key the gateway hands out for a live login token; the key and the opened drafts live in this tab's memory
 * and go the moment the session does (token or coach changes, sign-out, 401). So a closed, expired or ended session
 * leaves nothing readable behind, while a reload or a failed save within the session still finds every draft.
 *
 * Forms read synchronously from memory: the shell waits for openDrafts() before it shows a screen. Writes are
 * coalesced: the first keystroke is sealed at once (a reload right after typing still finds it), what follows at most
 * once per WRITE_DELAY_MS, not once per key press (and at once when the page is hidden).
 */
const WRITE_DELAY_MS = 300;
/** After no usable answer to the key request, the next one waits this long (a gateway that is down is not flooded). */
const KEY_RETRY_MS = 5000;

interface Vault {
  token: string;
  coachId: string;
  /** The opened drafts: what a form shows after a reload. */
  drafts: Map<string, unknown>;
  /** Typed, not sealed yet. */
  unsealed: Map<string, unknown>;
  key: Promise<DraftKeyAnswer> | null;
  /** Opening the stored drafts: running, or done (true). */
  opened: Promise<void> | true | null;
}

let vault: Vault | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
/** Something was kept while a write was held back (sealSoon). */
let held = false;

// Each sign-in has a vault of its own; without a live session there is none, and the key is gone with it.
function follow(): void {
  const me = isAuthenticated.value ? user.value : null;
  const live = me && token.value ? { token: token.value, coachId: me.id } : null;
  if (vault && vault.token === live?.token && vault.coachId === live.coachId) return;
  endVault();
  vault = live && { ...live, drafts: new Map(), unsealed: new Map(), key: null, opened: null };
}
effect(follow);

/*
 * Nothing is stored until the key is there, and the key is asked for with the first keystroke of a session: a reload
 * in that moment would lose what was typed. Focusing a field comes before typing, so the key is asked for then.
 */
if (typeof document !== 'undefined') {
  document.addEventListener('focusin', (event) => {
    const field = event.target as Element | null;
    if (vault && !vault.key && field?.matches?.('input, textarea, select, [contenteditable]')) void keyOf(vault);
  });
}

/** Forgets key and drafts at once (the key object is non-extractable: dropping it is all there is to do). */
function endVault(): void {
  clearTimeout(timer);
  timer = undefined;
  held = false;
  vault = null;
}

const ownPrefix = (v: Vault) => `${DRAFT_PREFIX}${encodeURIComponent(v.coachId)}:`;

/** The key, asked for once per session; an attempt that got no usable answer is forgotten after KEY_RETRY_MS. */
function keyOf(v: Vault): Promise<DraftKeyAnswer> {
  if (v.key) return v.key;
  const asked = fetchDraftKey(v.token).then((answer) => {
    if (answer === 'failed') setTimeout(() => forgetKey(v, asked), KEY_RETRY_MS);
    return answer;
  });
  v.key = asked;
  return asked;
}

function forgetKey(v: Vault, asked: Promise<DraftKeyAnswer>): void {
  if (v.key === asked) v.key = null;
}

/**
 * Opens this coach's stored drafts into memory, once per session. Null when there is nothing to wait for (no live
 * session, no stored draft, already open); else a promise that never rejects. Plain drafts from before sealing are
 * removed unread; sealed ones that do not open (another XSRF_SECRET, altered) are removed, never shown garbled.
 * Without a key (refused, gateway down) they stay sealed and are not shown.
 */
export function openDrafts(): Promise<void> | null {
  const v = vault;
  if (!v || v.opened === true) return null;
  if (v.opened) return v.opened;
  const sealed: [string, SealedDraft][] = [];
  for (const [name, stored] of storedDrafts()) {
    const envelope = envelopeOf(stored);
    if (!envelope) removeStored(name);
    else if (name.startsWith(ownPrefix(v))) sealed.push([name, envelope]);
  }
  if (sealed.length === 0) {
    v.opened = true;
    return null;
  }
  v.opened = openAll(v, sealed).finally(() => {
    v.opened = true;
  });
  return v.opened;
}

async function openAll(v: Vault, sealed: [string, SealedDraft][]): Promise<void> {
  const key = await keyOf(v);
  if (typeof key === 'string') return;
  await Promise.all(
    sealed.map(async ([name, envelope]) => {
      try {
        const value = await unseal(key, name, envelope);
        if (vault === v && !v.drafts.has(name)) v.drafts.set(name, value);
      } catch {
        if (vault === v) removeStored(name);
      }
    }),
  );
}

/** The draft under `name`, as the form last kept it in this session, or null. */
export function storedDraft<T>(name: string): T | null {
  return (vault?.drafts.get(name) as T | undefined) ?? null;
}

/** Keeps a draft; without a live session nothing is kept (the form still holds the text on screen). */
export function keepDraft(name: string, value: unknown): void {
  const v = vault;
  if (!v) return;
  v.drafts.set(name, value);
  v.unsealed.set(name, value);
  sealSoon();
}

/** Seals now unless a write went out less than WRITE_DELAY_MS ago; then once that time is up. */
function sealSoon(): void {
  held = timer !== undefined;
  if (held) return;
  void flushDrafts();
  timer = setTimeout(() => {
    timer = undefined;
    if (held) sealSoon();
  }, WRITE_DELAY_MS);
}

/** The save was confirmed or the change discarded: the draft goes, from memory and storage, also while a write is under way. */
export function dropDraft(name: string): void {
  vault?.drafts.delete(name);
  vault?.unsealed.delete(name);
  removeStored(name);
}

let writing: Promise<void> = Promise.resolve();

/**
 * Seals and stores what was typed since the last write; resolves once everything kept so far is stored. Writes run
 * one after another, so an older text never lands after a newer one. Without a key the drafts stay unsealed in
 * memory, for the next try.
 */
export function flushDrafts(): Promise<void> {
  writing = writing.then(sealUnsealed).catch(() => undefined);
  return writing;
}

async function sealUnsealed(): Promise<void> {
  const v = vault;
  if (!v || v.unsealed.size === 0) return;
  const key = await keyOf(v);
  if (typeof key === 'string' || vault !== v) return;
  // Taken once the key is there: every keystroke made while it was asked for goes out in this one write.
  const batch = [...v.unsealed];
  v.unsealed.clear();
  await Promise.all(
    batch.map(async ([name, value]) => {
      const sealed = await seal(key, name, value);
      // Only what the form still holds is written: a draft removed or retyped meanwhile is not brought back.
      if (vault === v && v.drafts.get(name) === value) writeStored(name, sealed);
    }),
  );
}

function onStorage(event: StorageEvent): void {
  const v = vault;
  if (!v || event.storageArea !== localStorage) return;
  // Another tab cleared the storage (sign-out) or replaced the token: the session this vault belongs to is over.
  if (event.key === null || (event.key === TOKEN_KEY && event.newValue !== v.token)) return endVault();
  if (event.key.startsWith(ownPrefix(v))) void adopt(v, event.key, event.newValue);
}

/** A draft another tab of this session stored or removed is what this tab offers too. */
async function adopt(v: Vault, name: string, stored: string | null): Promise<void> {
  const envelope = stored === null ? null : envelopeOf(stored);
  if (!envelope) return void v.drafts.delete(name);
  const key = await keyOf(v);
  if (typeof key === 'string') return;
  try {
    const value = await unseal(key, name, envelope);
    if (vault === v && !v.unsealed.has(name)) v.drafts.set(name, value);
  } catch {
    // Not sealed for this session: nothing to offer here.
  }
}

addEventListener('storage', onStorage);
// Hiding the page (another tab, the browser minimised, the phone locked) writes what the last keystrokes left.
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') void flushDrafts();
});

function storedDrafts(): [string, string][] {
  const found: [string, string][] = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const name = localStorage.key(i);
      const stored = name?.startsWith(DRAFT_PREFIX) ? localStorage.getItem(name) : null;
      if (name && stored !== null) found.push([name, stored]);
    }
  } catch {
    // Storage disabled: nothing was stored.
  }
  return found;
}

function writeStored(name: string, sealed: string): void {
  try {
    localStorage.setItem(name, sealed);
  } catch {
    // Storage full or blocked: the form still holds the text, only the reload safety net is missing.
  }
}

function removeStored(name: string): void {
  try {
    localStorage.removeItem(name);
  } catch {
    // Storage disabled: nothing was stored.
  }
}

/** Test hook: this tab forgets what it opened, as a reload would, while the session stays. */
export function reloadDraftsForTests(): void {
  vault = null;
  follow();
}

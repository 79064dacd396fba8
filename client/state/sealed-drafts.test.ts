import { afterEach, describe, expect, onTestFinished, test, vi } from 'vitest';
import { draftStorageKey } from '../lib/drafts.ts';
import { apiError, json, mockFetch } from '../../test/helpers/client-fetch.ts';
import { everythingStored, offeredAfterReload, reloadWithinSession, signedInCoach } from '../../test/helpers/client-drafts.ts';
import { dropDraft, flushDrafts, keepDraft, openDrafts, reloadDraftsForTests, storedDraft } from './sealed-drafts.ts';
import { token } from './session.ts';

/*
 * Drafts hold health data. In the browser's storage they are only ever sealed, under a key the gateway hands out
 * for a live session; this tab keeps the key and the opened drafts in memory while the session lives.
 */
const note = draftStorageKey('me', 'p1', 'comment');
const TYPED = 'Patientin berichtet über Schlafstörungen und Panikattacken';
const keyCalls = (calls: { path: string }[]) => calls.filter((c) => c.path === '/session/draft-key');

afterEach(() => vi.unstubAllGlobals());

describe('a kept draft', () => {
  test('is stored sealed: no word of what was typed, and a fresh envelope for every write', async () => {
    mockFetch({});
    signedInCoach('me');
    keepDraft(note, TYPED);
    await flushDrafts();
    const first = localStorage.getItem(note)!;
    expect(JSON.parse(first)).toEqual({ v: 1, iv: expect.stringMatching(/^[\w-]{16}$/), data: expect.any(String) });
    for (const word of TYPED.split(' ')) expect(everythingStored()).not.toContain(word);
    keepDraft(note, `${TYPED}.`);
    keepDraft(note, TYPED);
    await flushDrafts();
    expect(localStorage.getItem(note)).not.toBe(first);
  });

  test('comes back after a reload within the session, opened with the key the gateway hands out again', async () => {
    const { calls } = mockFetch({});
    signedInCoach('me');
    keepDraft(note, TYPED);
    keepDraft(draftStorageKey('me', 'p1', 'master-data'), { values: { phone: '0931 4711' }, etag: null });
    expect(await offeredAfterReload(note)).toBe(TYPED);
    expect(storedDraft(draftStorageKey('me', 'p1', 'master-data'))).toEqual({ values: { phone: '0931 4711' }, etag: null });
    expect(keyCalls(calls)).toHaveLength(2); // once for the writes, once for the reloaded tab
  });

  test('typing is sealed at once, then at most every 300 ms, not per key press; the key is asked for once per session, once there is a draft', async () => {
    const { calls } = mockFetch({});
    signedInCoach('me');
    expect(openDrafts()).toBeNull();
    expect(keyCalls(calls), 'nothing stored, nothing typed: no key needed').toHaveLength(0);
    const encrypt = vi.spyOn(crypto.subtle, 'encrypt');
    for (let i = 1; i <= TYPED.length; i++) keepDraft(note, TYPED.slice(0, i));
    await vi.waitFor(() => expect(encrypt).toHaveBeenCalled());
    await flushDrafts();
    expect(encrypt).toHaveBeenCalledTimes(1);
    keepDraft(note, `${TYPED} – Rückruf morgen`);
    await flushDrafts();
    expect(keyCalls(calls)).toHaveLength(1);
    expect(await offeredAfterReload(note)).toBe(`${TYPED} – Rückruf morgen`);
  });

  test('is not brought back by a write still under way when it was removed (saved) meanwhile', async () => {
    mockFetch({});
    signedInCoach('me');
    keepDraft(note, TYPED);
    const writing = flushDrafts();
    dropDraft(note);
    await writing;
    expect(localStorage.getItem(note)).toBeNull();
    expect(await offeredAfterReload(note)).toBeNull();
  });
});

describe('without a live session', () => {
  test('nothing is kept', async () => {
    const { calls } = mockFetch({});
    keepDraft(note, TYPED);
    await flushDrafts();
    expect(localStorage.getItem(note)).toBeNull();
    expect(storedDraft(note)).toBeNull();
    expect(keyCalls(calls)).toHaveLength(0);
  });

  test('once the session ends the tab forgets the opened drafts, and what is stored stays sealed', async () => {
    mockFetch({});
    signedInCoach('me');
    keepDraft(note, TYPED);
    await flushDrafts();
    token.value = null;
    expect(storedDraft(note)).toBeNull();
    expect(openDrafts()).toBeNull();
    expect(everythingStored()).not.toContain('Schlafstörungen');
  });

  test('a stored draft is not shown when the gateway refuses the key (the token has ended), and stays sealed', async () => {
    mockFetch({});
    signedInCoach('me');
    keepDraft(note, TYPED);
    await flushDrafts();
    mockFetch({ 'GET /session/draft-key': apiError(401, 'UNAUTHORIZED') });
    expect(await offeredAfterReload(note)).toBeNull();
    expect(localStorage.getItem(note)).not.toBeNull();
    expect(everythingStored()).not.toContain('Schlafstörungen');
  });

  test('a failed key request shows nothing, and a write after a few seconds asks again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    onTestFinished(() => void vi.useRealTimers());
    const failing = mockFetch({ 'GET /session/draft-key': apiError(503) });
    signedInCoach('me');
    keepDraft(note, TYPED);
    await flushDrafts();
    expect(localStorage.getItem(note), 'never stored unsealed').toBeNull();
    keepDraft(note, `${TYPED}.`);
    await flushDrafts();
    expect(keyCalls(failing.calls), 'not asked again at once').toHaveLength(1);
    vi.advanceTimersByTime(5000);
    const { calls } = mockFetch({});
    keepDraft(note, `${TYPED}!`);
    await flushDrafts();
    expect(keyCalls(calls)).toHaveLength(1);
    expect(await offeredAfterReload(note)).toBe(`${TYPED}!`);
  });
});

describe('stored drafts that cannot be opened are removed, never shown', () => {
  test('a plain draft from before sealing', async () => {
    mockFetch({});
    signedInCoach('me');
    localStorage.setItem(note, TYPED);
    localStorage.setItem(draftStorageKey('me', 'p2', 'master-data'), JSON.stringify({ values: { phone: '0931 4711' } }));
    await reloadWithinSession();
    expect(storedDraft(note)).toBeNull();
    expect(Object.keys(localStorage).filter((k) => k.startsWith('draft:'))).toEqual([]);
  });

  test('a draft sealed under another key (XSRF_SECRET changed), or moved under another record', async () => {
    mockFetch({ 'GET /auth/me': json({ id: 'me' }) });
    signedInCoach('me');
    keepDraft(note, TYPED);
    await flushDrafts();
    const sealed = localStorage.getItem(note)!;
    const other = draftStorageKey('me', 'p2', 'comment');
    localStorage.setItem(other, sealed);
    expect(await offeredAfterReload(other), 'moved: does not open').toBeNull();
    expect(localStorage.getItem(other)).toBeNull();
    expect(storedDraft(note)).toBe(TYPED);

    mockFetch({ 'GET /auth/me': json({ id: 'me-after-secret-change' }) });
    expect(await offeredAfterReload(note)).toBeNull();
    expect(localStorage.getItem(note)).toBeNull();
  });
});

describe('another tab of the same browser', () => {
  const fromOtherTab = (key: string | null, newValue: string | null) =>
    window.dispatchEvent(new StorageEvent('storage', { key, newValue, storageArea: localStorage }));

  test('a draft it stored in this session is offered here too, and one it removed goes here too', async () => {
    mockFetch({});
    signedInCoach('me');
    keepDraft(note, TYPED);
    await flushDrafts();
    const sealed = localStorage.getItem(note);
    reloadDraftsForTests();
    expect(storedDraft(note)).toBeNull();
    fromOtherTab(note, sealed);
    await vi.waitFor(() => expect(storedDraft(note)).toBe(TYPED));
    fromOtherTab(note, null);
    expect(storedDraft(note)).toBeNull();
  });

  test('signing out there ends the drafts here: nothing opened stays, nothing new is written', async () => {
    mockFetch({});
    signedInCoach('me');
    keepDraft(note, TYPED);
    await flushDrafts();
    localStorage.clear();
    fromOtherTab(null, null);
    expect(storedDraft(note)).toBeNull();
    keepDraft(note, `${TYPED} (nach der Abmeldung getippt)`);
    await flushDrafts();
    expect(localStorage.getItem(note)).toBeNull();
  });
});

import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { checkSession, dropSession, loadApi, login, resetSessionForTests } from './session.ts';
import { flushDrafts, keepDraft, openDrafts, storedDraft } from './sealed-drafts.ts';
import { everythingStored } from '../../test/helpers/client-drafts.ts';
import { request } from '../data/http.ts';
import { logout } from './session-end.ts';
import { draftKey } from '../features/patient/detail/Comments.tsx';
import { apiError, buildMe, json, mockFetch, noContent } from '../../test/helpers/client-fetch.ts';

/*
 * Unsent comment drafts hold free text about a patient's health. They are stored per coach and patient, and they
 * end with the session however it ends: logout (also when the logout call fails), a 401, a locked account, an
 * expired token found at start-up. A coach who signs in never gets another coach's drafts.
 */
const mine = draftKey('coach-1', 'p1');
const drafts = () => Object.keys(localStorage).filter((k) => k.startsWith('draft:'));

beforeEach(() => {
  resetSessionForTests();
  history.replaceState(null, '', '/patient/p1');
});
afterEach(() => vi.unstubAllGlobals());

function signedIn() {
  localStorage.setItem('accessToken', 'tok');
  localStorage.setItem(mine, 'Patientin klagt über Schlafstörungen');
  localStorage.setItem(draftKey('coach-1', 'p2', 'c7'), 'Bearbeitung');
}

describe('drafts end with the session', () => {
  test('on logout', async () => {
    signedIn();
    mockFetch({ 'GET /auth/me': json(buildMe()), 'POST /auth/logout': noContent() });
    await checkSession();
    await logout();
    expect(drafts()).toEqual([]);
  });

  test('on logout when the logout call fails (offline)', async () => {
    signedIn();
    mockFetch({ 'GET /auth/me': json(buildMe()), 'POST /auth/logout': apiError(503) });
    await checkSession();
    localStorage.setItem('lang', 'de');
    await logout();
    expect(drafts()).toEqual([]);
    expect(localStorage.getItem('accessToken')).toBeNull();
  });

  test('on a 401 from any call (the token expired or was revoked)', async () => {
    signedIn();
    mockFetch({ 'GET /auth/me': json(buildMe()), 'GET /patients': apiError(401, 'INVALID_TOKEN') });
    await checkSession();
    expect(drafts()).toHaveLength(2);
    await expect(request('GET', '/patients')).rejects.toMatchObject({ status: 401 });
    expect(drafts()).toEqual([]);
  });

  test('when the start-up check finds the token expired', async () => {
    signedIn();
    mockFetch({ 'GET /auth/me': apiError(401, 'INVALID_TOKEN') });
    expect(await checkSession()).toBeNull();
    expect(drafts()).toEqual([]);
  });

  test('when the account is locked', async () => {
    signedIn();
    mockFetch({ 'GET /auth/me': json(buildMe({ isUserLocked: true })), 'POST /auth/logout': noContent() });
    expect(await checkSession()).toBeNull();
    expect(drafts()).toEqual([]);
  });
});

test("signing in keeps the coach's own drafts and removes any other coach's", async () => {
  localStorage.setItem(mine, 'eigener Entwurf');
  localStorage.setItem(draftKey('coach-9', 'p1'), 'Entwurf eines Kollegen');
  localStorage.setItem('unrelated', 'bleibt');
  mockFetch({
    'POST /auth/login': json({ id: 'tok-new', ttl: 1209600, created: '2026-01-01T00:00:00.000Z', userId: 'coach-1', user: buildMe() }),
    'GET /auth/me': json(buildMe()),
  });
  await loadApi();
  expect((await login('coach@example.org', 'pw'))?.id).toBe('coach-1');
  expect(drafts()).toEqual([mine]);
  expect(localStorage.getItem('unrelated')).toBe('bleibt');
});

describe('sealed drafts across sessions', () => {
  const signingIn = () => {
    let sessions = 0;
    return mockFetch({
      'POST /auth/login': () => json({ id: `tok-${++sessions}`, ttl: 43200, created: '2026-01-01T00:00:00.000Z', userId: 'coach-1', user: buildMe() }),
      'GET /auth/me': json(buildMe()),
      'POST /auth/logout': noContent(),
    });
  };

  test("an idle logout keeps them sealed, and the same coach's next sign-in offers them again", async () => {
    signingIn();
    await loadApi();
    await login('coach@example.org', 'pw');
    keepDraft(mine, 'Patientin klagt über Schlafstörungen');
    await flushDrafts();
    dropSession(true);
    expect(storedDraft(mine), 'the tab forgot it with the session').toBeNull();
    expect(drafts()).toEqual([mine]);
    expect(everythingStored()).not.toContain('Schlafstörungen');

    await login('coach@example.org', 'pw');
    await openDrafts();
    expect(storedDraft(mine)).toBe('Patientin klagt über Schlafstörungen');
  });

  test('signing out removes them, sealed or not', async () => {
    signingIn();
    await loadApi();
    await login('coach@example.org', 'pw');
    keepDraft(mine, 'Patientin klagt über Schlafstörungen');
    await flushDrafts();
    expect(drafts()).toEqual([mine]);
    await logout();
    expect(drafts()).toEqual([]);
    expect(storedDraft(mine)).toBeNull();
  });
});

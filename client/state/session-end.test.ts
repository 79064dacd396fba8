import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { vi } from 'vitest';
import { waitFor } from '@testing-library/preact';
import { followOtherTabs, handleUnauthorized } from './session-end.ts';
import { resetSessionForTests, token, user } from './session.ts';
import { onUnauthorized, request } from '../data/http.ts';
import { draftStorageKey } from '../lib/drafts.ts';
import { apiError, buildMe, json, mockFetch, noContent } from '../../test/helpers/client-fetch.ts';
import { otherTab, signedInTab } from '../../test/helpers/client-session.ts';

const DRAFT = draftStorageKey('coach-1', 'p1', 'comment');
const here = () => `${location.pathname}${location.search}`;
let stop: () => void = () => undefined;

beforeEach(() => {
  resetSessionForTests();
  history.replaceState(null, '', '/patient/p1');
  signedInTab();
  localStorage.setItem(DRAFT, 'Patientin schläft schlecht');
  stop = followOtherTabs();
});
afterEach(() => {
  stop();
  onUnauthorized(null);
  vi.unstubAllGlobals();
});

describe('a sign-out in another tab', () => {
  test.each([
    ['idle', '/login?returnUrl=%2Fpatient%2Fp1&reason=idle'],
    ['expired', '/login?returnUrl=%2Fpatient%2Fp1&reason=expired'],
  ])('(%s) signs this tab out and leaves the patient screen for the login screen with the reason', (reason, login) => {
    otherTab('sessionEnd', reason);
    otherTab('accessToken', null);
    expect(user.value).toBeNull();
    expect(token.value).toBeNull();
    expect(here()).toBe(login);
  });

  test('after a 401 there signs this tab out too, back to this screen after the next sign-in', () => {
    otherTab('sessionEnd', null);
    otherTab('accessToken', null);
    expect(user.value).toBeNull();
    expect(here()).toBe('/login?returnUrl=%2Fpatient%2Fp1');
  });

  test('("Abmelden") signs this tab out at once, before the server has answered, and goes to the plain login screen', () => {
    signedInTab('tok-signing-out');
    const { calls } = mockFetch({});
    otherTab('sessionEnd', 'logout');
    expect(user.value).toBeNull();
    expect(here()).toBe('/login');
    // The stored token is still there until the server answers; this tab sends nothing with it any more.
    return expect(request('GET', '/patients'))
      .rejects.toMatchObject({ name: 'AbortError' })
      .then(() => expect(calls).toEqual([]));
  });

  test('stops the calls this tab still had on their way, so no late answer fills a screen', async () => {
    signedInTab('tok-in-flight');
    const { calls } = mockFetch({ 'GET /patients': () => new Promise<Response>(() => undefined) });
    const loading = request('GET', '/patients');
    await waitFor(() => expect(calls).toHaveLength(1));
    otherTab('accessToken', null);
    await expect(loading).rejects.toMatchObject({ name: 'AbortError' });
  });

  test('leaves the drafts to the tab that ended the session', () => {
    otherTab('sessionEnd', 'idle');
    otherTab('accessToken', null);
    expect(localStorage.getItem(DRAFT)).toBe('Patientin schläft schlecht');
  });
});

describe('a sign-in in another tab', () => {
  test('of the same coach does not sign this tab out: it carries on with the new token', async () => {
    mockFetch({ 'GET /auth/me': json(buildMe()) });
    otherTab('accessToken', 'tok-2');
    await waitFor(() => expect(token.value).toBe('tok-2'));
    expect(user.value?.id).toBe('coach-1');
    expect(here()).toBe('/patient/p1');
  });

  test("of another coach leaves this coach's patient screen for the dashboard", async () => {
    mockFetch({ 'GET /auth/me': json(buildMe({ id: 'coach-2' })) });
    otherTab('accessToken', 'tok-2');
    await waitFor(() => expect(user.value?.id).toBe('coach-2'));
    expect(here()).toBe('/dashboard');
  });

  test('with a token that does not work here signs this tab out without removing that token', async () => {
    mockFetch({ 'GET /auth/me': apiError(401, 'INVALID_TOKEN') });
    otherTab('accessToken', 'tok-reset-link');
    await waitFor(() => expect(user.value).toBeNull());
    expect(localStorage.getItem('accessToken')).toBe('tok-reset-link');
  });
});

describe('a 401', () => {
  beforeEach(() => onUnauthorized(handleUnauthorized));

  test.each([
    ['SESSION_IDLE', 'idle'],
    ['SESSION_EXPIRED', 'expired'],
  ])('with %s sends the coach to the login screen that says why, keeps the drafts and tells the other tabs', async (code, reason) => {
    mockFetch({ 'GET /patients': apiError(401, code) });
    await expect(request('GET', '/patients')).rejects.toMatchObject({ status: 401 });
    expect(here()).toBe(`/login?returnUrl=%2Fpatient%2Fp1&reason=${reason}`);
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(localStorage.getItem(DRAFT)).toBe('Patientin schläft schlecht');
    expect(localStorage.getItem('sessionEnd')).toBe(reason);
  });

  test('to a call sent without any token ends nothing (the session had already ended in another tab)', async () => {
    localStorage.removeItem('accessToken');
    mockFetch({ 'GET /patients': apiError(401, 'AUTHORIZATION_REQUIRED'), 'POST /auth/logout': noContent() });
    await expect(request('GET', '/patients')).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem(DRAFT)).toBe('Patientin schläft schlecht');
  });
});

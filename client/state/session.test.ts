import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { screen, waitFor, fireEvent } from '@testing-library/preact';
import { checkSession, isAuthenticated, lastLoginFailure, loadApi, login, resetSessionForTests, token, user } from './session.ts';
import { request } from '../data/http.ts';
import { logout } from './session-end.ts';
import { loadNews } from './news.ts';
import { apiError, buildMe, json, mockFetch, noContent } from '../../test/helpers/client-fetch.ts';

const loginAnswer = (id: string) => ({ id, ttl: 1209600, created: '2026-01-01T00:00:00.000Z', userId: 'coach-1', user: buildMe() });

beforeEach(() => {
  resetSessionForTests();
  history.replaceState(null, '', '/');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('start-up session check', () => {
  test('without a token the user is logged out and nothing is fetched', async () => {
    const { calls } = mockFetch({});
    expect(await checkSession()).toBeNull();
    expect(calls).toHaveLength(0);
    expect(isAuthenticated.value).toBe(false);
  });

  test('with a token the current user is fetched once, however often the check is asked for', async () => {
    localStorage.setItem('accessToken', 'tok');
    const { calls } = mockFetch({ 'GET /auth/me': json(buildMe()) });
    const [a, b] = await Promise.all([checkSession(), checkSession()]);
    await checkSession();
    expect(a?.id).toBe('coach-1');
    expect(b).toBe(a);
    expect(calls.filter((c) => c.path === '/v2/auth/me')).toHaveLength(1);
    expect(isAuthenticated.value).toBe(true);
  });

  test('a locked user is logged out and the token cleared', async () => {
    localStorage.setItem('accessToken', 'tok');
    const { calls } = mockFetch({ 'GET /auth/me': json(buildMe({ isUserLocked: true })), 'POST /auth/logout': noContent() });
    expect(await checkSession()).toBeNull();
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(token.value).toBeNull();
    expect(user.value).toBeNull();
    expect(calls.some((c) => c.method === 'POST' && c.path === '/v2/auth/logout')).toBe(true);
  });

  test.each([401, 500])('a failed fetch of the user (%i) counts as an expired token and clears it', async (status) => {
    localStorage.setItem('accessToken', 'tok');
    mockFetch({ 'GET /auth/me': apiError(status) });
    expect(await checkSession()).toBeNull();
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(isAuthenticated.value).toBe(false);
  });

  test('a 401 with an empty body (LoopBack, expired token) counts as an expired token too', async () => {
    localStorage.setItem('accessToken', 'tok');
    mockFetch({ 'GET /auth/me': new Response(null, { status: 401 }) });
    expect(await checkSession()).toBeNull();
    expect(localStorage.getItem('accessToken')).toBeNull();
  });

  test('a user answer the client cannot use counts as a failed fetch: the token is cleared and it is reported', async () => {
    localStorage.setItem('accessToken', 'tok');
    const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch({ 'GET /auth/me': json({ id: 3, email: 'c@example.org' }) });
    expect(await checkSession()).toBeNull();
    expect(localStorage.getItem('accessToken')).toBeNull();
    // reportError logs to the console (and to Sentry when configured).
    expect(reported).toHaveBeenCalledWith(
      expect.objectContaining({ code: 'INVALID_RESPONSE', fields: ['isUserLocked', 'isAdmin', 'isSuperAdmin', 'isHealthManager'] }),
    );
    reported.mockRestore();
  });

  test('a locked LoopBack user with a numeric id is logged out too', async () => {
    localStorage.setItem('accessToken', 'tok');
    mockFetch({
      'GET /auth/me': json({ id: 3, email: 'c@example.org', isUserLocked: true, isAdmin: false, isSuperAdmin: false, isHealthManager: false }),
      'POST /auth/logout': noContent(),
    });
    expect(await checkSession()).toBeNull();
    expect(localStorage.getItem('accessToken')).toBeNull();
  });
});

describe('login', () => {
  test('an answer with an id stores the token, fetches the user and returns it', async () => {
    const { calls } = mockFetch({ 'POST /auth/login': json(loginAnswer('new-token')), 'GET /auth/me': json(buildMe()) });
    const me = await login('coach@example.org', 'Demo-Passwort-1');
    expect(me?.id).toBe('coach-1');
    expect(localStorage.getItem('accessToken')).toBe('new-token');
    expect(calls[0].body).toEqual({ email: 'coach@example.org', password: 'Demo-Passwort-1' });
    expect(calls[1].headers.authorization).toBe('Bearer new-token');
    expect(isAuthenticated.value).toBe(true);
  });

  test('an answer without an id yields null and stores nothing', async () => {
    mockFetch({ 'POST /auth/login': json(loginAnswer('')) });
    expect(await login('coach@example.org', 'x')).toBeNull();
    expect(localStorage.getItem('accessToken')).toBeNull();
  });

  test('a 403 shows the alert "Login Fehler" / "Dieses Konto wurde gesperrt!" and yields null', async () => {
    mockFetch({ 'POST /auth/login': apiError(403, 'ACCOUNT_LOCKED') });
    const result = login('locked@example.org', 'Demo-Passwort-1');
    const dialog = await screen.findByRole('alertdialog', { name: 'Login Fehler' });
    expect(dialog.textContent).toContain('Dieses Konto wurde gesperrt!');
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(await result).toBeNull();
    expect(lastLoginFailure.value).toBe('locked');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  test('other login errors are silent and yield null', async () => {
    mockFetch({ 'POST /auth/login': apiError(401, 'LOGIN_FAILED') });
    expect(await login('coach@example.org', 'wrong')).toBeNull();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(lastLoginFailure.value).toBe('failed');
  });
});

describe('logout', () => {
  test('on success clears local storage, keeps the language choice and goes to /login', async () => {
    localStorage.setItem('accessToken', 'tok');
    localStorage.setItem('something', 'else');
    history.replaceState(null, '', '/dashboard');
    const { calls } = mockFetch({ 'POST /auth/logout': noContent() });
    await logout();
    expect(calls[0].method).toBe('POST');
    expect(calls[0].path).toBe('/v2/auth/logout');
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(localStorage.getItem('something')).toBeNull();
    expect(localStorage.getItem('language')).toBe('de');
    expect(location.pathname).toBe('/login');
  });

  test('when the call fails the token is still forgotten and the user goes to /login', async () => {
    localStorage.setItem('accessToken', 'tok');
    mockFetch({ 'POST /auth/logout': apiError(500) });
    await logout();
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(location.pathname).toBe('/login');
  });
});

describe('logout while screens are still loading', () => {
  test('aborts their calls, sends nothing else with the old token and reports no error', async () => {
    localStorage.setItem('accessToken', 'tok');
    await loadApi();
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let answerNews: (r: Response) => void = () => undefined;
    let answerLogout: (r: Response) => void = () => undefined;
    const { calls, fetchMock } = mockFetch({
      'GET /news': () => new Promise<Response>((resolve) => (answerNews = resolve)),
      'GET /patients': json([]),
      'POST /auth/logout': () => new Promise<Response>((resolve) => (answerLogout = resolve)),
    });
    const loading = loadNews();
    await waitFor(() => expect(calls).toHaveLength(1));
    const leaving = logout();
    await waitFor(() => expect(calls.map((c) => c.path)).toContain('/v2/auth/logout'));
    expect((fetchMock.mock.calls[0][1] as RequestInit).signal?.aborted).toBe(true);
    // a screen that starts loading while the logout call is on its way must not send the revoked token
    await expect(request('GET', '/patients')).rejects.toThrow();
    answerLogout(noContent());
    answerNews(apiError(401)); // what the server says to the old token once it is revoked
    await Promise.all([loading, leaving]);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /v2/news', 'POST /v2/auth/logout']);
    expect(consoleError).not.toHaveBeenCalled();
    expect(location.pathname).toBe('/login');
    consoleError.mockRestore();
  });
});

describe('a token stored while the start-up check runs', () => {
  test.each([
    ['a 401', () => apiError(401)],
    ['a server error', () => apiError(500)],
    ['a locked user', () => json(buildMe({ isUserLocked: true }))],
  ])('is kept when the check of the old token ends in %s', async (_case, answer) => {
    localStorage.setItem('accessToken', 'stale');
    let respond: (r: Response) => void = () => undefined;
    const { calls } = mockFetch({ 'GET /auth/me': () => new Promise<Response>((resolve) => (respond = resolve)), 'POST /auth/logout': noContent() });
    const check = checkSession();
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].headers.authorization).toBe('Bearer stale');
    localStorage.setItem('accessToken', 'link-token'); // what the reset screen does with its link
    respond(answer());
    await check;
    expect(localStorage.getItem('accessToken')).toBe('link-token');
    expect(calls.some((c) => c.path === '/v2/auth/logout')).toBe(false);
  });
});

describe('401 on any other call', () => {
  test('is ignored when a newer token has been stored since the call was sent', async () => {
    localStorage.setItem('accessToken', 'old');
    let respond: (r: Response) => void = () => undefined;
    const { calls } = mockFetch({ 'GET /patients': () => new Promise<Response>((resolve) => (respond = resolve)) });
    await loadApi();
    history.replaceState(null, '', '/dashboard');
    const call = request('GET', '/patients');
    await waitFor(() => expect(calls).toHaveLength(1));
    localStorage.setItem('accessToken', 'new');
    token.value = 'new';
    respond(apiError(401));
    await expect(call).rejects.toThrow();
    expect(localStorage.getItem('accessToken')).toBe('new');
    expect(token.value).toBe('new');
    expect(location.pathname).toBe('/dashboard');
  });

  test('ends the session and sends the user to /login with the current address as returnUrl', async () => {
    localStorage.setItem('accessToken', 'tok');
    mockFetch({ 'GET /auth/me': json(buildMe()), 'GET /patients': apiError(401) });
    await checkSession();
    history.replaceState(null, '', '/patient?page=2');
    await expect(request('GET', '/patients')).rejects.toThrow();
    expect(token.value).toBeNull();
    expect(user.value).toBeNull();
    expect(localStorage.getItem('accessToken')).toBeNull();
    await waitFor(() => expect(location.pathname).toBe('/login'));
    expect(new URLSearchParams(location.search).get('returnUrl')).toBe('/patient?page=2');
  });
});

import { afterEach, beforeEach, describe, expect, onTestFinished, test, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { Router } from 'wouter';
import LoginScreen from './index.tsx';
import { resetSessionForTests, user } from '../../state/session.ts';
import { reportError } from '../../lib/error-reporting.ts';
import { apiError, buildMe, json, mockFetch } from '../../../test/helpers/client-fetch.ts';
import { idleMinutesMeta } from '../../../test/helpers/client-session.ts';
import { activate, addDictionary } from '../../lib/i18n.ts';
import en from '../../../locales/en.json' with { type: 'json' };
import fr from '../../../locales/fr.json' with { type: 'json' };

vi.mock('../../lib/error-reporting.ts', () => ({ reportError: vi.fn() }));

const answer = { id: 'tok', ttl: 1, created: '2026-01-01T00:00:00.000Z', userId: 'coach-1', user: buildMe() };

function show(path: string) {
  history.replaceState(null, '', path);
  render(
    <Router>
      <LoginScreen />
    </Router>,
  );
}

function fillAndSubmit() {
  fireEvent.input(screen.getByLabelText('E-Mail'), { target: { value: 'coach@example.org' } });
  fireEvent.input(screen.getByLabelText('Passwort'), { target: { value: 'Demo-Passwort-1' } });
  fireEvent.click(screen.getByRole('button', { name: 'Anmelden' }));
}

beforeEach(() => resetSessionForTests());
afterEach(() => vi.unstubAllGlobals());

describe('login screen', () => {
  test('has labelled email and password fields and a link to /coach-reset-password', () => {
    show('/login');
    expect(screen.getByLabelText('E-Mail').getAttribute('type')).toBe('email');
    expect(screen.getByLabelText('Passwort').getAttribute('type')).toBe('password');
    expect(screen.getByRole('link', { name: 'Passwort vergessen?' }).getAttribute('href')).toBe('/coach-reset-password');
  });

  test('after login the user lands on the returnUrl', async () => {
    mockFetch({ 'POST /auth/login': json(answer), 'GET /auth/me': json(buildMe()) });
    show('/login?returnUrl=%2Fpatient%2F42%3Ftab%3Dnotes');
    fillAndSubmit();
    await waitFor(() => expect(location.pathname).toBe('/patient/42'));
    expect(location.search).toBe('?tab=notes');
  });

  test.each(['https%3A%2F%2Fevil.example%2F', '%2F%2Fevil.example'])('an off-site returnUrl (%s) lands on /dashboard', async (returnUrl) => {
    mockFetch({ 'POST /auth/login': json(answer), 'GET /auth/me': json(buildMe()) });
    show(`/login?returnUrl=${returnUrl}`);
    fillAndSubmit();
    await waitFor(() => expect(location.pathname).toBe('/dashboard'));
  });

  test('without returnUrl the user lands on /dashboard', async () => {
    mockFetch({ 'POST /auth/login': json(answer), 'GET /auth/me': json(buildMe()) });
    show('/login');
    fillAndSubmit();
    await waitFor(() => expect(location.pathname).toBe('/dashboard'));
  });

  test('when login yields nothing a clear message appears and the typed email stays', async () => {
    mockFetch({ 'POST /auth/login': apiError(401, 'LOGIN_FAILED') });
    show('/login');
    fillAndSubmit();
    expect((await screen.findByRole('alert')).textContent).toBe('Die Anmeldung ist fehlgeschlagen. Bitte prüfen Sie E-Mail-Adresse und Passwort.');
    expect((screen.getByLabelText('E-Mail') as HTMLInputElement).value).toBe('coach@example.org');
    expect(location.pathname).toBe('/login');
  });

  test('a locked account gets the "Login Fehler" alert and no second message', async () => {
    mockFetch({ 'POST /auth/login': apiError(403, 'ACCOUNT_LOCKED') });
    show('/login');
    fillAndSubmit();
    expect(await screen.findByRole('alertdialog', { name: 'Login Fehler' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  test('signs in with a LoopBack 3 login answer { id, ttl, userId, user } with numeric ids and the minimal user', async () => {
    const minimal = { id: 7, email: 'coach@example.org', isUserLocked: false, isAdmin: false, isSuperAdmin: false, isHealthManager: true };
    mockFetch({ 'POST /auth/login': json({ id: 'lb-token', ttl: 1209600, userId: 7, user: minimal }), 'GET /auth/me': json(minimal) });
    show('/login');
    fillAndSubmit();
    await waitFor(() => expect(location.pathname).toBe('/dashboard'));
    expect(localStorage.getItem('accessToken')).toBe('lb-token');
    expect(user.value).toMatchObject({ id: '7', email: 'coach@example.org', isHealthManager: true, firstName: '' });
  });

  test.each([
    ['the login answer has no id', { 'POST /auth/login': json({ ttl: 1, user: buildMe() }) }],
    [
      'the user lacks a flag docs/product.md shows',
      { 'POST /auth/login': json(answer), 'GET /auth/me': json({ id: 'c1', email: 'coach@example.org', isUserLocked: false }) },
    ],
    ['the answer is not JSON', { 'POST /auth/login': new Response('<html>Portal</html>', { status: 200 }) }],
  ])('when %s the form says the answer was not understood, reports it once and stores no token', async (_case, routes) => {
    vi.mocked(reportError).mockClear();
    mockFetch(routes);
    show('/login');
    fillAndSubmit();
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^Die Anmeldung ist fehlgeschlagen: Der Server hat eine Antwort geschickt, die diese Anwendung nicht versteht\./,
    );
    expect(reportError).toHaveBeenCalledOnce();
    expect(vi.mocked(reportError).mock.calls[0][0]).toMatchObject({ code: 'INVALID_RESPONSE' });
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(screen.getByLabelText('Passwort').getAttribute('aria-invalid')).toBeNull();
  });
});

describe('login screen after a session ended', () => {
  const status = () => screen.queryByRole('status')?.textContent ?? null;

  test.each([
    [undefined, 'Sie wurden nach 30 Minuten ohne Aktivität abgemeldet.'],
    ['15', 'Sie wurden nach 15 Minuten ohne Aktivität abgemeldet.'],
    ['1', 'Sie wurden nach 1 Minute ohne Aktivität abgemeldet.'],
    ['zehn', 'Sie wurden nach 30 Minuten ohne Aktivität abgemeldet.'],
  ])('after the idle logout (idle minutes %s) says so with the configured minutes', (minutes, text) => {
    if (minutes !== undefined) idleMinutesMeta(minutes);
    show('/login?returnUrl=%2Fpatient%2F42&reason=idle');
    expect(status()).toBe(text);
  });

  test.each([
    ['en', '1', 'You were signed out after 1 minute without activity.'],
    ['en', '30', 'You were signed out after 30 minutes without activity.'],
    ['fr', '1', 'Votre session a été fermée après 1 minute d’inactivité.'],
    ['fr', '30', 'Votre session a été fermée après 30 minutes d’inactivité.'],
  ] as const)('says it in %s too (%s minutes)', (lang, minutes, text) => {
    addDictionary(lang, (lang === 'en' ? en : fr) as Record<string, unknown>);
    activate(lang);
    onTestFinished(() => activate('de'));
    idleMinutesMeta(minutes);
    show('/login?reason=idle');
    expect(status()).toBe(text);
  });

  test('after an expired session asks to sign in again', () => {
    show('/login?returnUrl=%2Fdashboard&reason=expired');
    expect(status()).toBe('Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.');
  });

  test.each(['/login', '/login?reason=anything'])('at %s says nothing about a session', (path) => {
    show(path);
    expect(status()).toBeNull();
  });

  test('after the idle logout signs in back to where the coach was', async () => {
    mockFetch({ 'POST /auth/login': json(answer), 'GET /auth/me': json(buildMe()) });
    show('/login?returnUrl=%2Fpatient%2F42%3Ftab%3Dnotes&reason=idle');
    fillAndSubmit();
    await waitFor(() => expect(location.pathname).toBe('/patient/42'));
    expect(location.search).toBe('?tab=notes');
  });
});

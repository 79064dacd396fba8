import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/preact';
import { Router } from 'wouter';
import { AppRoutes } from './routes.tsx';
import { resetSessionForTests, sessionChecked, token, user } from './state/session.ts';
import { can } from './domain/permissions.ts';
import { RequireAdmin } from './shell/RequireAdmin.tsx';
import { buildMe, json, mockFetch } from '../test/helpers/client-fetch.ts';
import type { Me } from '../contract/schemas/auth.ts';

// Feature areas belong to other helpers; here they are stand-ins that only say where we are.
vi.mock('./features/dashboard/index.tsx', () => ({ default: () => <h1>Dashboard-Seite</h1> }));
vi.mock('./features/patient/index.tsx', () => ({ default: () => <h1>Patient-Seite</h1> }));
vi.mock('./features/admin/index.tsx', () => ({ default: () => <h1>Admin-Seite</h1> }));
vi.mock('./features/stats/index.tsx', () => ({ default: () => <h1>Stats-Seite</h1> }));
vi.mock('./features/export/index.tsx', () => ({ default: () => <h1>Export-Seite</h1> }));
vi.mock('./features/print-patient/index.tsx', () => ({ default: () => <h1>Druck-Seite</h1> }));
vi.mock('./features/print-access-code/index.tsx', () => ({ default: () => <h1>Zugangscode-Druck-Seite</h1> }));
vi.mock('./features/create-access/index.tsx', () => ({ default: () => <h1>Zugang-Seite</h1> }));
vi.mock('./features/settings/index.tsx', () => ({ default: () => <h1>Einstellungen-Seite</h1> }));
vi.mock('./features/information/index.tsx', () => ({ default: () => <h1>Hilfe-Seite</h1> }));
vi.mock('./features/news-dashboard/index.tsx', () => ({ default: () => <h1>News-Seite</h1> }));

function signIn(overrides: Partial<Me> = {}) {
  localStorage.setItem('accessToken', 'tok');
  token.value = 'tok';
  user.value = { ...(buildMe() as Me), ...overrides };
  sessionChecked.value = true;
}

function visit(path: string) {
  history.replaceState(null, '', path);
  return render(
    <Router>
      <AppRoutes />
    </Router>,
  );
}

beforeEach(() => {
  resetSessionForTests();
  mockFetch({ 'GET /news': json([]), 'GET /system/settings': json({ enable_creating_new_patients: true, instance_name: 'CL' }) });
});
afterEach(() => vi.unstubAllGlobals());

describe('login guard', () => {
  test('sends an unauthenticated user to /login with the requested URL as returnUrl', async () => {
    sessionChecked.value = true;
    visit('/patient?tab=notes');
    await waitFor(() => expect(location.pathname).toBe('/login'));
    expect(new URLSearchParams(location.search).get('returnUrl')).toBe('/patient?tab=notes');
    expect(await screen.findByRole('heading', { name: 'Anmelden' })).toBeTruthy();
  });

  test('waits for the start-up check instead of redirecting too early', () => {
    localStorage.setItem('accessToken', 'tok');
    visit('/dashboard');
    expect(location.pathname).toBe('/dashboard');
    expect(screen.getByText('Wird geladen …')).toBeTruthy();
  });

  test('guards both print routes outside the shell', async () => {
    sessionChecked.value = true;
    visit('/print/patient?id=7');
    await waitFor(() => expect(location.pathname).toBe('/login'));
    expect(new URLSearchParams(location.search).get('returnUrl')).toBe('/print/patient?id=7');
  });

  test('guards the access-code print route with the whole address as returnUrl', async () => {
    sessionChecked.value = true;
    visit('/print/access-code?code=AB12&patientId=7');
    await waitFor(() => expect(location.pathname).toBe('/login'));
    expect(new URLSearchParams(location.search).get('returnUrl')).toBe('/print/access-code?code=AB12&patientId=7');
  });

  test('a locked user is not authenticated and goes to /login', async () => {
    signIn({ isUserLocked: true });
    visit('/dashboard');
    await waitFor(() => expect(location.pathname).toBe('/login'));
  });

  test('shows a print route without the shell when signed in', async () => {
    signIn();
    visit('/print/patient?id=7');
    expect(await screen.findByRole('heading', { name: 'Druck-Seite' })).toBeTruthy();
    expect(screen.queryByRole('navigation')).toBeNull();
  });
});

describe('routes inside the shell', () => {
  test('the empty path redirects to /dashboard inside the shell', async () => {
    signIn();
    visit('/');
    expect(await screen.findByRole('heading', { name: 'Dashboard-Seite' })).toBeTruthy();
    expect(location.pathname).toBe('/dashboard');
    expect(screen.getByRole('banner')).toBeTruthy();
  });

  test.each([
    ['/dashboard', 'Dashboard-Seite'],
    ['/create-access', 'Zugang-Seite'],
    ['/patient', 'Patient-Seite'],
    ['/settings', 'Einstellungen-Seite'],
    ['/information', 'Hilfe-Seite'],
    ['/stats', 'Stats-Seite'],
    ['/export', 'Export-Seite'],
    ['/news-dashboard?id=n1', 'News-Seite'],
  ])('%s shows its feature area inside the shell', async (path, heading) => {
    signIn();
    visit(path);
    expect(await screen.findByRole('heading', { name: heading })).toBeTruthy();
    expect(screen.getByRole('banner')).toBeTruthy();
  });

  test('a feature area also matches its child paths', async () => {
    signIn();
    visit('/patient/42');
    expect(await screen.findByRole('heading', { name: 'Patient-Seite' })).toBeTruthy();
  });

  test('an unknown path shows the 404 page', async () => {
    signIn();
    visit('/does-not-exist');
    expect(await screen.findByRole('heading', { name: 'Seite nicht gefunden' })).toBeTruthy();
  });

  test.each([
    ['an administrator', { isAdmin: true }],
    ['a super administrator', { isSuperAdmin: true }],
  ])('the admin guard lets %s in', async (_name, flags) => {
    signIn(flags);
    visit('/admin');
    expect(await screen.findByRole('heading', { name: 'Admin-Seite' })).toBeTruthy();
  });

  test('the admin guard denies when no user is loaded', () => {
    user.value = null;
    render(
      <RequireAdmin>
        <h1>Admin-Seite</h1>
      </RequireAdmin>,
    );
    expect(screen.getByRole('heading', { name: 'Kein Zugriff' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Admin-Seite' })).toBeNull();
    expect([can('manageCoaches', null), can('manageCoaches', { ...(buildMe() as Me) })]).toEqual([false, false]);
  });

  test('the admin guard keeps other coaches out', async () => {
    signIn({ isHealthManager: true });
    visit('/admin');
    expect(await screen.findByRole('heading', { name: 'Kein Zugriff' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Admin-Seite' })).toBeNull();
  });

  test.each(['/stats', '/export'])('%s needs no extra guard', async (path) => {
    signIn();
    visit(path);
    expect(await screen.findByRole('heading', { level: 1, name: /-Seite$/ })).toBeTruthy();
  });
});

describe('open routes', () => {
  test('internet-explorer-msg is open and names the supported browsers', async () => {
    visit('/internet-explorer-msg');
    expect(await screen.findByRole('heading', { name: 'Browser wird nicht unterstützt' })).toBeTruthy();
    expect(screen.getByText(/Firefox, Chrome oder Safari/)).toBeTruthy();
    expect(location.pathname).toBe('/internet-explorer-msg');
  });

  test('reset-password is matched by prefix', async () => {
    visit('/reset-password/anything?access_token=abc');
    expect(await screen.findByRole('heading', { name: 'Neues Passwort' })).toBeTruthy();
  });

  test('coach-reset-password is open', async () => {
    visit('/coach-reset-password');
    expect(await screen.findByRole('heading', { name: 'Ihre E-Mail Adresse' })).toBeTruthy();
  });

  test('login is open', async () => {
    visit('/login');
    expect(await screen.findByRole('heading', { name: 'Anmelden' })).toBeTruthy();
  });
});

describe('the area a path belongs to (what the login screen fetches ahead)', () => {
  test.each([
    ['/dashboard', 'dashboard'],
    ['/patient/42?tab=comments', 'patient'],
    ['/news-dashboard?id=n1', 'news-dashboard'],
    ['/print/access-code?code=X', 'print-access-code'],
    ['/print/patient?id=1', 'print-patient'],
    ['/app', 'dashboard'],
    ['/no-such-page', 'dashboard'],
  ])('%s -> %s', async (path, area) => {
    const { areaOf } = await import('./areas.ts');
    expect(areaOf(path)).toBe(area);
  });
});

import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/preact';
import { Sidebar } from './Sidebar.tsx';
import { sidebarOpen } from './sidebar-state.ts';
import { user } from '../state/session.ts';
import { loadSystemSettings, settingsStatus, systemSettings } from '../state/settings.ts';
import { apiError, buildMe, json, mockFetch } from '../../test/helpers/client-fetch.ts';
import type { Me } from '../../contract/schemas/auth.ts';

const USERS: Record<string, Partial<Me>> = {
  coach: {},
  'health manager': { isHealthManager: true },
  administrator: { isAdmin: true },
  'super administrator': { isSuperAdmin: true },
};
// Each settings state is reached the way the app reaches it: a real load (answered, or failing) or none yet.
const loadWith = (answer: () => Response) => async () => {
  mockFetch({ 'GET /system/settings': answer });
  await loadSystemSettings();
};
const SETTINGS = {
  on: loadWith(() => json({ enable_creating_new_patients: true, instance_name: 'CL' })),
  off: loadWith(() => json({ enable_creating_new_patients: false, instance_name: 'CL' })),
  'not loaded': async () => undefined,
  failed: loadWith(() => apiError(500)),
} as const;

// Expected [New User, Coaches verwalten, Controlling, Export] per user and settings state (docs/product.md#roles;
// Export for everyone who may export, can('export') in domain/permissions.ts, is the project's decision).
const EXPECTED: Record<string, Record<keyof typeof SETTINGS, [boolean, boolean, boolean, boolean]>> = {
  coach: { on: [true, false, false, true], off: [false, false, false, true], 'not loaded': [true, false, false, true], failed: [true, false, false, true] },
  'health manager': {
    on: [true, false, true, true],
    off: [false, false, true, true],
    'not loaded': [true, false, true, true],
    failed: [true, false, true, true],
  },
  administrator: { on: [true, true, true, true], off: [true, true, true, true], 'not loaded': [true, true, true, true], failed: [true, true, true, true] },
  // The super administrator is an administrator everywhere (the admin guard always let them in; the sidebar now agrees).
  'super administrator': {
    on: [true, true, true, true],
    off: [true, true, true, true],
    'not loaded': [true, true, true, true],
    failed: [true, true, true, true],
  },
};

beforeEach(() => {
  sidebarOpen.value = true;
  vi.spyOn(console, 'error').mockImplementation(() => undefined); // the failed load logs
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  user.value = null;
  systemSettings.value = null;
  settingsStatus.value = 'idle';
  sidebarOpen.value = false;
});

function openManagement() {
  const toggle = screen.queryByRole('button', { name: 'Verwaltung' });
  if (toggle && toggle.getAttribute('aria-expanded') === 'false') fireEvent.click(toggle);
}
const shown = (name: string) => screen.queryByRole('link', { name }) !== null;

describe('sidebar visibility', () => {
  for (const [kind, flags] of Object.entries(USERS)) {
    for (const [state, settings] of Object.entries(SETTINGS)) {
      const [create, admin, stats, exp] = EXPECTED[kind][state as keyof typeof SETTINGS];
      test(`a ${kind} with settings ${state}: New User ${create}, Coaches verwalten ${admin}, Controlling ${stats}, Export ${exp}`, async () => {
        user.value = { ...(buildMe() as Me), ...flags };
        await settings();
        expect(settingsStatus.value).toBe(state === 'not loaded' ? 'idle' : state === 'failed' ? 'failed' : 'loaded');
        render(<Sidebar />);
        openManagement();
        expect(shown('Dashboard')).toBe(true);
        expect(shown('Hilfe & Unterlagen & Infos')).toBe(true);
        expect(shown('News')).toBe(true);
        expect([shown('New User'), shown('Coaches verwalten'), shown('Controlling'), shown('Export')]).toEqual([create, admin, stats, exp]);
      });
    }
  }
});

describe('sidebar links', () => {
  test('each link goes to its path', () => {
    user.value = { ...(buildMe() as Me), isAdmin: true };
    render(<Sidebar />);
    openManagement();
    const hrefs = Object.fromEntries(
      ['Dashboard', 'Hilfe & Unterlagen & Infos', 'News', 'New User', 'Coaches verwalten', 'Controlling', 'Export'].map((name) => [
        name,
        screen.getByRole('link', { name }).getAttribute('href'),
      ]),
    );
    expect(hrefs).toEqual({
      Dashboard: '/dashboard',
      'Hilfe & Unterlagen & Infos': '/information',
      News: '/news-dashboard',
      'New User': '/create-access',
      'Coaches verwalten': '/admin',
      Controlling: '/stats',
      Export: '/export',
    });
  });

  test('the links come in the order of docs/product.md#screens', () => {
    user.value = { ...(buildMe() as Me), isAdmin: true };
    render(<Sidebar />);
    openManagement();
    expect(screen.getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual([
      '/dashboard',
      '/information',
      '/news-dashboard',
      '/create-access',
      '/admin',
      '/stats',
      '/export',
    ]);
  });

  test('New User carries the plus icon', () => {
    user.value = buildMe() as Me;
    render(<Sidebar />);
    expect(screen.getByRole('link', { name: 'New User' }).querySelector('svg path')?.getAttribute('d')).toBe('M12 5v14M5 12h14');
  });

  test('selecting the submenu opens it and selecting it again closes it', () => {
    user.value = { ...(buildMe() as Me), isAdmin: true };
    history.replaceState(null, '', '/dashboard');
    render(<Sidebar />);
    const toggle = screen.getByRole('button', { name: 'Verwaltung' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('link', { name: 'Export' })).toBeNull();
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('link', { name: 'Export' })).toBeTruthy();
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('link', { name: 'Export' })).toBeNull();
  });

  test('a closed sidebar is hidden from everyone', () => {
    sidebarOpen.value = false;
    user.value = buildMe() as Me;
    render(<Sidebar />);
    expect(screen.queryByRole('navigation')).toBeNull();
  });
});

import { describe, expect, test, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/preact';
import { navigate } from 'wouter/use-browser-location';
import { sidebarOpen, shouldCloseAfterNavigation } from './sidebar-state.ts';
import { locale } from '../lib/i18n.ts';
import { cleanTitle } from '../lib/instance-title.ts';
import { apiError, json, mockFetch, noContent } from '../../test/helpers/client-fetch.ts';
import { renderShell, setWidth, signedInShell } from '../../test/helpers/shell-render.tsx';
import en from '../../locales/en.json' with { type: 'json' };

// The shell around every screen: the sidebar, the top bar and its menus. The news menu: NewsMenu.test.tsx.

signedInShell();

describe('settings loading', () => {
  test('a failed settings load is logged only and New User stays shown', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch({ 'GET /news': json([]), 'GET /system/settings': apiError(500) });
    sidebarOpen.value = true;
    setWidth(3000);
    renderShell();
    await waitFor(() => expect(consoleError).toHaveBeenCalled());
    expect(screen.getByRole('link', { name: 'New User' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('sidebar toggle and auto-close', () => {
  test('the menu button toggles the sidebar', async () => {
    mockFetch({ 'GET /news': json([]), 'GET /system/settings': json({ enable_creating_new_patients: true, instance_name: 'CL' }) });
    setWidth(1280);
    renderShell();
    const button = screen.getByRole('button', { name: 'Menü ein- oder ausblenden' });
    expect(screen.queryByRole('navigation')).toBeNull();
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('navigation', { name: 'Hauptnavigation' })).toBeTruthy();
    fireEvent.click(button);
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  test.each([
    [2500, false],
    [2501, true],
  ])('after a navigation at a window width of %i px the sidebar is open: %s', async (width, staysOpen) => {
    mockFetch({ 'GET /news': json([]), 'GET /system/settings': json({ enable_creating_new_patients: true, instance_name: 'CL' }) });
    setWidth(width);
    renderShell();
    await act(() => {
      sidebarOpen.value = true;
    });
    await act(() => navigate('/information'));
    expect(sidebarOpen.value).toBe(staysOpen);
  });

  test('the auto-close rule closes only an open sidebar up to 2500 px', () => {
    expect(shouldCloseAfterNavigation(2500, true)).toBe(true);
    expect(shouldCloseAfterNavigation(2501, true)).toBe(false);
    expect(shouldCloseAfterNavigation(375, false)).toBe(false);
  });
});

describe('top bar', () => {
  test('the instance title has its quotation marks stripped, and defaults to CL', () => {
    expect(cleanTitle('"Nachsorge Nord"')).toBe('Nachsorge Nord');
    expect(cleanTitle("'X'")).toBe('X');
    expect(cleanTitle('„Klinik“ am See')).toBe('Klinik am See');
    expect(cleanTitle("St. Mary's Klinik")).toBe("St. Mary's Klinik");
    expect(cleanTitle('""')).toBe('CL');
    expect(cleanTitle('')).toBe('CL');
    expect(cleanTitle(null)).toBe('CL');
  });

  test.each([
    ['"Nachsorge Nord"', 'Nachsorge Nord'],
    [null, 'CL'],
  ])('the top bar shows the configured title %s as %s', (configured, shown) => {
    mockFetch({ 'GET /news': json([]), 'GET /system/settings': json({ enable_creating_new_patients: true, instance_name: 'CL' }) });
    const meta = document.createElement('meta');
    meta.name = 'app-title';
    if (configured !== null) {
      meta.content = configured;
      document.head.append(meta);
    }
    try {
      renderShell();
      expect(screen.getByRole('banner').querySelector('.topbar-title')?.textContent).toBe(shown);
    } finally {
      meta.remove();
    }
  });

  test('the top bar holds, in order: menu button, title, patient search, news, language, profile, logout', () => {
    mockFetch({ 'GET /news': json([]), 'GET /system/settings': json({ enable_creating_new_patients: true, instance_name: 'CL' }) });
    renderShell();
    const bar = screen.getByRole('banner');
    const parts = [...bar.querySelectorAll('button, a, .topbar-title')].map((el) =>
      el.classList.contains('topbar-title') ? `title:${el.textContent}` : el.getAttribute('aria-label'),
    );
    expect(parts).toEqual([
      'Menü ein- oder ausblenden',
      'title:CL',
      'Patientin oder Patient suchen',
      'Keine neue News vorhanden',
      'Sprache: DE',
      'Profil',
      'Abmelden',
    ]);
  });

  test('the profile menu offers Inbox and Settings', async () => {
    mockFetch({ 'GET /news': json([]), 'GET /system/settings': json({ enable_creating_new_patients: true, instance_name: 'CL' }) });
    renderShell();
    fireEvent.click(screen.getByRole('button', { name: 'Profil' }));
    expect(screen.getByRole('menuitem', { name: 'Inbox' }).getAttribute('href')).toBe('/news-dashboard');
    expect(screen.getByRole('menuitem', { name: 'Einstellungen' }).getAttribute('href')).toBe('/settings');
  });

  test('the language menu switches to English at once, fetching only en.json, and remembers it', async () => {
    const { calls } = mockFetch({
      'GET /news': json([]),
      'GET /system/settings': json({ enable_creating_new_patients: true, instance_name: 'CL' }),
      'GET /assets/i18n/en.json': json(en),
    });
    renderShell();
    fireEvent.click(screen.getByRole('button', { name: 'Sprache: DE' }));
    expect(screen.getAllByRole('menuitemradio').map((b) => b.textContent)).toEqual(['Deutsch', 'English', 'Français']);
    fireEvent.click(screen.getByRole('menuitemradio', { name: 'English' }));
    expect(await screen.findByRole('button', { name: 'Log out' })).toBeTruthy();
    expect(locale.value).toBe('en');
    expect(localStorage.getItem('language')).toBe('en');
    expect(calls.filter((c) => c.path.startsWith('/assets/i18n/')).map((c) => c.path)).toEqual(['/assets/i18n/en.json']);
  });

  test('the logout button logs out and goes to /login', async () => {
    const { calls } = mockFetch({ 'GET /news': json([]), 'GET /system/settings': apiError(500), 'POST /auth/logout': noContent() });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderShell();
    fireEvent.click(screen.getByRole('button', { name: 'Abmelden' }));
    await waitFor(() => expect(location.pathname).toBe('/login'));
    expect(calls.some((c) => c.method === 'POST' && c.path === '/v2/auth/logout')).toBe(true);
    expect(localStorage.getItem('accessToken')).toBeNull();
  });
});

test('Escape closes an open sidebar', async () => {
  mockFetch({ 'GET /news': json([]), 'GET /system/settings': json({ enable_creating_new_patients: true, instance_name: 'CL' }) });
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: 375 });
  renderShell();
  fireEvent.click(screen.getByRole('button', { name: 'Menü ein- oder ausblenden' }));
  expect(screen.getByRole('navigation', { name: 'Hauptnavigation' })).toBeTruthy();
  fireEvent.keyDown(document, { key: 'Escape' });
  expect(screen.queryByRole('navigation')).toBeNull();
});

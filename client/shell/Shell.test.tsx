import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { Router } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import Shell from './Shell.tsx';
import { sidebarOpen, shouldCloseAfterNavigation } from './sidebar-state.ts';
import { user, token } from '../state/session.ts';
import { markRead, news } from '../state/news.ts';
import { systemSettings } from '../state/settings.ts';
import { activate, locale } from '../lib/i18n.ts';
import { cleanTitle } from '../lib/instance-title.ts';
import { apiError, buildMe, json, mockFetch, noContent } from '../../test/helpers/client-fetch.ts';
import en from '../../locales/en.json' with { type: 'json' };
import type { Me } from '../api/schemas/auth.ts';

const item = (id: string, title: string, read = false) => ({ id, title, body: '', publishedAt: '2026-01-01T00:00:00.000Z', read });

function renderShell() {
  return render(
    <Router>
      <Shell>
        <p>Inhalt</p>
      </Shell>
    </Router>,
  );
}

let originalWidth: number;
beforeEach(() => {
  originalWidth = window.innerWidth;
  history.replaceState(null, '', '/dashboard');
  user.value = buildMe() as Me;
  token.value = 'tok';
  localStorage.setItem('accessToken', 'tok');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: originalWidth });
  news.value = [];
  systemSettings.value = null;
  sidebarOpen.value = false;
  user.value = null;
  activate('de');
});

function setWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
}

describe('news menu', () => {
  test('with no unread news the newspaper icon links to /news-dashboard with the tooltip "Keine neue News vorhanden"', async () => {
    mockFetch({ 'GET /news': json([item('1', 'Alt', true)]), 'GET /system/settings': json({ enable_creating_new_patients: true, instance_name: 'CL' }) });
    renderShell();
    const link = await screen.findByRole('link', { name: 'Keine neue News vorhanden' });
    expect(link.getAttribute('href')).toBe('/news-dashboard');
    expect(link.getAttribute('data-tooltip')).toBe('Keine neue News vorhanden');
    expect(link.querySelector('.badge')).toBeNull();
  });

  test('unread news show a warning badge with the count, the tooltip, and their titles in reverse order', async () => {
    mockFetch({
      'GET /news': json([item('a', 'Erste'), item('b', 'Gelesen', true), item('c', 'Zweite'), item('d', 'Dritte')]),
      'GET /system/settings': json({ enable_creating_new_patients: true, instance_name: 'CL' }),
    });
    renderShell();
    const button = await screen.findByRole('button', { name: 'Sie haben 3 ungelesene News' });
    expect(button.getAttribute('data-tooltip')).toBe('Sie haben 3 ungelesene News');
    const badge = button.querySelector('.badge.badge-warning');
    expect(badge?.textContent).toBe('3');
    fireEvent.click(button);
    const items = screen.getAllByRole('menuitem');
    expect(items.map((a) => a.textContent)).toEqual(['Dritte', 'Zweite', 'Erste']);
    expect(items.map((a) => a.getAttribute('href'))).toEqual(['/news-dashboard?id=d', '/news-dashboard?id=c', '/news-dashboard?id=a']);
  });

  test('clicking an unread title goes to /news-dashboard?id=<id>', async () => {
    mockFetch({ 'GET /news': json([item('n7', 'Neu')]), 'GET /system/settings': json({ enable_creating_new_patients: true, instance_name: 'CL' }) });
    renderShell();
    fireEvent.click(await screen.findByRole('button', { name: 'Sie haben 1 ungelesene News' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Neu' }));
    expect(location.pathname).toBe('/news-dashboard');
    expect(location.search).toBe('?id=n7');
  });

  test('marking a news item read updates the badge at once, before the server has answered', async () => {
    let answer: (r: Response) => void = () => undefined;
    const { calls } = mockFetch({
      'GET /news': json([item('1', 'Eins'), item('2', 'Zwei')]),
      'GET /system/settings': json({ enable_creating_new_patients: true, instance_name: 'CL' }),
      'POST /news/1/read/coach-1': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    renderShell();
    await screen.findByRole('button', { name: 'Sie haben 2 ungelesene News' });
    let done: Promise<void> = Promise.resolve();
    await act(() => {
      done = markRead('1');
    });
    const button = screen.getByRole('button', { name: 'Sie haben 1 ungelesene News' });
    expect(button.querySelector('.badge')?.textContent).toBe('1');
    expect(calls.some((c) => c.method === 'POST' && c.path === '/v2/news/1/read/coach-1')).toBe(true);
    answer(noContent());
    await act(() => done);
    fireEvent.click(button);
    expect(screen.getAllByRole('menuitem').map((a) => a.textContent)).toEqual(['Zwei']);
  });

  test('marking the last unread item read turns the menu into the plain newspaper link', async () => {
    mockFetch({
      'GET /news': json([item('1', 'Eins')]),
      'GET /system/settings': json({ enable_creating_new_patients: true, instance_name: 'CL' }),
      'POST /news/1/read/coach-1': noContent(),
    });
    renderShell();
    await screen.findByRole('button', { name: 'Sie haben 1 ungelesene News' });
    await act(() => markRead('1'));
    expect(screen.getByRole('link', { name: 'Keine neue News vorhanden' }).getAttribute('href')).toBe('/news-dashboard');
  });
});

describe('news loading', () => {
  test('a failed news load goes to the console only: no message, and the plain newspaper link', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch({ 'GET /news': apiError(500), 'GET /system/settings': json({ enable_creating_new_patients: true, instance_name: 'CL' }) });
    renderShell();
    await waitFor(() => expect(consoleError).toHaveBeenCalled());
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('link', { name: 'Keine neue News vorhanden' })).toBeTruthy();
  });
});

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

  test('the top bar holds, in order: menu button, title, news, language, profile, logout', () => {
    mockFetch({ 'GET /news': json([]), 'GET /system/settings': json({ enable_creating_new_patients: true, instance_name: 'CL' }) });
    renderShell();
    const bar = screen.getByRole('banner');
    const parts = [...bar.querySelectorAll('button, a, .topbar-title')].map((el) =>
      el.classList.contains('topbar-title') ? `title:${el.textContent}` : el.getAttribute('aria-label'),
    );
    expect(parts).toEqual(['Menü ein- oder ausblenden', 'title:CL', 'Keine neue News vorhanden', 'Sprache: DE', 'Profil', 'Abmelden']);
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

describe('a flaky line', () => {
  test('loads the news again when the connection comes back after they could not be loaded', async () => {
    const { reportAnswer, reportNoAnswer } = await import('../lib/connection.ts');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    // A token of its own: the logout test above ended the session of 'tok' (no request carries it any more).
    localStorage.setItem('accessToken', 'tok-flaky');
    let reachable = false;
    mockFetch({
      'GET /news': () => (reachable ? json([item('1', 'Neu')]) : Promise.reject(new TypeError('Failed to fetch'))),
      'GET /system/settings': json({ enable_creating_new_patients: true, instance_name: 'CL' }),
    });
    renderShell();
    expect(await screen.findByRole('link', { name: 'Keine neue News vorhanden' })).toBeTruthy();
    // The first load got no answer (logged to the console only, docs/product.md#errors).
    await waitFor(() => expect(console.error).toHaveBeenCalledWith('Could not load news', expect.anything()));
    reachable = true;
    act(() => {
      reportNoAnswer();
      reportAnswer();
    });
    expect(await screen.findByRole('button', { name: 'Sie haben 1 ungelesene News' })).toBeTruthy();
  });
});

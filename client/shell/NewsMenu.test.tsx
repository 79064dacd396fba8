import { describe, expect, test, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/preact';
import { markRead } from '../state/news.ts';
import { apiError, json, mockFetch, noContent } from '../../test/helpers/client-fetch.ts';
import { newsItem, renderShell, signedInShell } from '../../test/helpers/shell-render.tsx';

// The news menu of the top bar, in the shell: unread count, titles, marking read, a failed or flaky load.

signedInShell();

describe('news menu', () => {
  test('with no unread news the newspaper icon links to /news-dashboard with the tooltip "Keine neue News vorhanden"', async () => {
    mockFetch({ 'GET /news': json([newsItem('1', 'Alt', true)]), 'GET /system/settings': json({ enable_creating_new_patients: true, instance_name: 'CL' }) });
    renderShell();
    const link = await screen.findByRole('link', { name: 'Keine neue News vorhanden' });
    expect(link.getAttribute('href')).toBe('/news-dashboard');
    expect(link.getAttribute('data-tooltip')).toBe('Keine neue News vorhanden');
    expect(link.querySelector('.badge')).toBeNull();
  });

  test('unread news show a warning badge with the count, the tooltip, and their titles in reverse order', async () => {
    mockFetch({
      'GET /news': json([newsItem('a', 'Erste'), newsItem('b', 'Gelesen', true), newsItem('c', 'Zweite'), newsItem('d', 'Dritte')]),
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
    mockFetch({ 'GET /news': json([newsItem('n7', 'Neu')]), 'GET /system/settings': json({ enable_creating_new_patients: true, instance_name: 'CL' }) });
    renderShell();
    fireEvent.click(await screen.findByRole('button', { name: 'Sie haben 1 ungelesene News' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Neu' }));
    expect(location.pathname).toBe('/news-dashboard');
    expect(location.search).toBe('?id=n7');
  });

  test('marking a news item read updates the badge at once, before the server has answered', async () => {
    let answer: (r: Response) => void = () => undefined;
    const { calls } = mockFetch({
      'GET /news': json([newsItem('1', 'Eins'), newsItem('2', 'Zwei')]),
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
      'GET /news': json([newsItem('1', 'Eins')]),
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

describe('a flaky line', () => {
  test('loads the news again when the connection comes back after they could not be loaded', async () => {
    const { reportAnswer, reportNoAnswer } = await import('../lib/connection.ts');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    // A token of its own: a logout ends the session of 'tok' (no request carries it any more).
    localStorage.setItem('accessToken', 'tok-flaky');
    let reachable = false;
    mockFetch({
      'GET /news': () => (reachable ? json([newsItem('1', 'Neu')]) : Promise.reject(new TypeError('Failed to fetch'))),
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

import { describe, test, expect, vi, beforeEach } from 'vitest';
import { screen, fireEvent, waitFor } from '@testing-library/preact';
import { buildNews, ok, apiFailure, ANNA_BERG } from '../../../test/helpers/screen-records.ts';
import { buildMe } from '../../../test/helpers/client-fetch.ts';
import { renderAt } from '../../../test/helpers/screen-render.tsx';

vi.mock('../../api/news.ts', () => ({ getNews: vi.fn(), markNewsRead: vi.fn(() => ok(undefined)), markNewsUnread: vi.fn(() => ok(undefined)) }));

const api = await import('../../api/news.ts');
const { user } = await import('../../state/session.ts');
const { news, unreadNews } = await import('../../state/news.ts');
const { default: NewsDashboardPage } = await import('./index.tsx');

const items = [
  buildNews({ id: 'n1', title: 'Wartung am Samstag', read: true, publishedAt: '2026-11-01T08:00:00.000Z' }),
  buildNews({ id: 'n2', title: 'Neue Schulungsunterlagen', read: false, publishedAt: '2026-11-10T08:00:00.000Z', body: 'Die Unterlagen liegen unter Hilfe.' }),
];

beforeEach(() => {
  vi.mocked(api.getNews)
    .mockReset()
    .mockImplementation(() => ok(items.map((i) => ({ ...i }))));
  vi.mocked(api.markNewsRead).mockClear();
  vi.mocked(api.markNewsUnread).mockClear();
  user.value = buildMe({ ...ANNA_BERG, id: 'coach-7' });
  news.value = [];
});

describe('news dashboard', () => {
  test('lists every news item with the unread ones marked', async () => {
    renderAt('/news-dashboard', <NewsDashboardPage />);
    const unread = await screen.findByRole('button', { name: /^(Neu\s*)?Neue Schulungsunterlagen$/ });
    expect(unread.textContent).toContain('Neu');
    expect(screen.getByRole('button', { name: 'Wartung am Samstag' }).textContent).not.toContain('Neu');
    expect(screen.getByText('1 ungelesen')).toBeTruthy();
  });

  test('?id= opens that item, marks it read on the server and updates the shared unread list at once', async () => {
    renderAt('/news-dashboard?id=n2', <NewsDashboardPage />);
    await waitFor(() => expect(api.markNewsRead).toHaveBeenCalledWith('n2', 'coach-7'));
    const toggle = screen.getByRole('button', { name: /^(Neu\s*)?Neue Schulungsunterlagen$/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText('Die Unterlagen liegen unter Hilfe.')).toBeTruthy();
    expect(unreadNews.value).toHaveLength(0);
    expect(document.activeElement).toBe(toggle);
  });

  test('an item marked unread counts as unread again for the top bar', async () => {
    renderAt('/news-dashboard', <NewsDashboardPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Als ungelesen markieren: Wartung am Samstag' }));
    expect(api.markNewsUnread).toHaveBeenCalledWith('n1', 'coach-7');
    expect(unreadNews.value.map((n) => n.id).sort()).toEqual(['n1', 'n2']);
  });

  test('shows an unknown ?id= as not found instead of failing', async () => {
    renderAt('/news-dashboard?id=gone', <NewsDashboardPage />);
    expect(await screen.findByText(/Diese News wurde nicht gefunden/)).toBeTruthy();
    expect(api.markNewsRead).not.toHaveBeenCalled();
  });

  test('says so when there is no news', async () => {
    vi.mocked(api.getNews).mockImplementation(() => ok([]));
    renderAt('/news-dashboard', <NewsDashboardPage />);
    expect(await screen.findByText('Es gibt noch keine News.')).toBeTruthy();
  });

  test('a failed load offers a retry that loads again', async () => {
    vi.mocked(api.getNews).mockImplementationOnce(() => Promise.reject(apiFailure(502)));
    renderAt('/news-dashboard', <NewsDashboardPage />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).not.toMatch(/undefined|\{/);
    fireEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByRole('button', { name: /^(Neu\s*)?Neue Schulungsunterlagen$/ })).toBeTruthy();
  });

  test('a refused change is rolled back and reported', async () => {
    vi.mocked(api.markNewsRead).mockImplementationOnce(() => Promise.reject(apiFailure(500)));
    renderAt('/news-dashboard', <NewsDashboardPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Als gelesen markieren: Neue Schulungsunterlagen' }));
    expect(await screen.findByText(/Der Lesestatus konnte nicht geändert werden/)).toBeTruthy();
    expect(unreadNews.value.map((n) => n.id)).toEqual(['n2']);
  });
});

import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { loadNews, markRead, markUnread, news, unreadNews } from './news.ts';
import { user } from './session.ts';
import { apiError, buildMe, json, mockFetch, noContent } from '../../test/helpers/client-fetch.ts';
import type { Me } from '../../contract/schemas/auth.ts';

const item = (id: string, read: boolean) => ({ id, title: `News ${id}`, body: 'Text', publishedAt: '2026-01-01T00:00:00.000Z', read });

beforeEach(() => {
  news.value = [];
  user.value = buildMe() as Me;
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  user.value = null;
});

describe('news state', () => {
  test('lists the unread items in reverse order of the answer', async () => {
    mockFetch({ 'GET /news': json([item('1', false), item('2', true), item('3', false), item('4', false)]) });
    await loadNews();
    expect(unreadNews.value.map((n) => n.id)).toEqual(['4', '3', '1']);
  });

  test('a loading failure goes to the console only and keeps the list', async () => {
    news.value = [item('1', false)];
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch({ 'GET /news': apiError(500) });
    await expect(loadNews()).resolves.toBeUndefined();
    expect(consoleError).toHaveBeenCalled();
    expect(news.value).toHaveLength(1);
  });

  test('mark read posts to /news/{id}/read/{coachId} and removes the item from the unread list', async () => {
    news.value = [item('1', false), item('2', false)];
    const { calls } = mockFetch({ 'POST /news/2/read/coach-1': noContent() });
    await markRead('2');
    expect(calls[0].path).toBe('/v2/news/2/read/coach-1');
    expect(unreadNews.value.map((n) => n.id)).toEqual(['1']);
  });

  test('mark unread posts to /news/{id}/unread/{coachId} and adds the item back', async () => {
    news.value = [item('1', true)];
    const { calls } = mockFetch({ 'POST /news/1/unread/coach-1': noContent() });
    await markUnread('1');
    expect(calls[0].path).toBe('/v2/news/1/unread/coach-1');
    expect(unreadNews.value.map((n) => n.id)).toEqual(['1']);
  });

  test('the list is emptied when the session ends, so the next coach never sees the previous badge', () => {
    news.value = [item('1', false)];
    expect(unreadNews.value).toHaveLength(1);
    user.value = null;
    expect(news.value).toEqual([]);
    expect(unreadNews.value).toEqual([]);
  });

  test('a refused mark read restores the previous state', async () => {
    news.value = [item('1', false)];
    mockFetch({ 'POST /news/1/read/coach-1': apiError(500) });
    await expect(markRead('1')).rejects.toThrow();
    expect(unreadNews.value.map((n) => n.id)).toEqual(['1']);
  });

  test('two quick changes of one item reach the server in the order they were made', async () => {
    news.value = [item('1', true)];
    const answer: (() => void)[] = [];
    const later = () => new Promise<Response>((resolve) => answer.push(() => resolve(noContent())));
    const { calls } = mockFetch({ 'POST /news/1/unread/coach-1': later, 'POST /news/1/read/coach-1': later });
    const unread = markUnread('1');
    const read = markRead('1');
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    expect(calls.map((call) => call.path)).toEqual(['/v2/news/1/unread/coach-1']);
    answer[0]();
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1].path).toBe('/v2/news/1/read/coach-1');
    answer[1]();
    await Promise.all([unread, read]);
    expect(news.value[0].read).toBe(true);
  });

  test('a refused change does not undo a later one of the same item', async () => {
    news.value = [item('1', false)];
    let posts = 0;
    mockFetch({ 'POST /news/1/read/coach-1': () => (posts++ === 0 ? apiError(500) : noContent()) });
    const first = markRead('1');
    const second = markRead('1');
    await expect(first).rejects.toThrow();
    await second;
    expect(posts).toBe(2);
    expect(news.value[0].read).toBe(true);
  });
});

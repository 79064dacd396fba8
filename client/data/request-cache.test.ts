import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import * as v from 'valibot';
import { request, setToken } from './http.ts';
import { online } from '../lib/connection.ts';

const ListSchema = v.array(v.object({ id: v.string() }));

interface Pending {
  url: string;
  method: string;
  signal: AbortSignal | undefined;
  answer: (body: unknown) => void;
  fail: (error: Error) => void;
}

/** fetch that answers only when the test says so; every call is recorded. */
function controlledFetch() {
  const pending: Pending[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(
      (url: string, init: RequestInit = {}) =>
        new Promise<Response>((resolve, reject) => {
          const call: Pending = {
            url,
            method: init.method ?? 'GET',
            signal: init.signal ?? undefined,
            answer: (body) => resolve(new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })),
            fail: reject,
          };
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          pending.push(call);
        }),
    ),
  );
  return pending;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => setToken('tok-1'));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('identical GETs in flight', () => {
  test('are sent once, and every caller gets the whole answer', async () => {
    const pending = controlledFetch();
    const a = request('GET', '/patients/p1/coaches', { schema: ListSchema });
    const b = request('GET', '/patients/p1/coaches', { schema: ListSchema });
    await settle();
    expect(pending).toHaveLength(1);
    pending[0].answer([{ id: 'c1' }]);
    expect((await a).data).toEqual([{ id: 'c1' }]);
    expect((await b).data).toEqual([{ id: 'c1' }]);
  });

  test('one caller giving up does not cancel the others; all giving up cancels the request', async () => {
    const pending = controlledFetch();
    const first = new AbortController();
    const second = new AbortController();
    const a = request('GET', '/patients/p1', { schema: v.object({ id: v.string() }), signal: first.signal });
    const b = request('GET', '/patients/p1', { schema: v.object({ id: v.string() }), signal: second.signal });
    await settle();
    first.abort();
    await expect(a).rejects.toMatchObject({ name: 'AbortError' });
    expect(pending[0].signal?.aborted).toBe(false);
    pending[0].answer({ id: 'p1' });
    expect((await b).data).toEqual({ id: 'p1' });

    const c = new AbortController();
    const late = request('GET', '/patients/p2', { schema: v.object({ id: v.string() }), signal: c.signal });
    await settle();
    c.abort();
    await expect(late).rejects.toMatchObject({ name: 'AbortError' });
    expect(pending[1].signal?.aborted).toBe(true);
  });

  test('differ by token: the same path for another session is another request', async () => {
    const pending = controlledFetch();
    void request('GET', '/patients');
    setToken('tok-2');
    void request('GET', '/patients');
    await settle();
    expect(pending).toHaveLength(2);
  });
});

describe('reference data', () => {
  test('is kept for the session: a second read is answered from memory, and revalidated in the background once older than 10 s', async () => {
    const pending = controlledFetch();
    const now = vi.spyOn(Date, 'now').mockReturnValue(1_000_000);
    const first = request('GET', '/coaches', { query: { filter: { limit: 1000 } }, schema: ListSchema });
    await settle();
    pending[0].answer([{ id: 'c1' }]);
    expect((await first).data).toEqual([{ id: 'c1' }]);

    // Within 10 s: from memory, nothing sent.
    expect((await request('GET', '/coaches', { query: { filter: { limit: 1000 } }, schema: ListSchema })).data).toEqual([{ id: 'c1' }]);
    expect(pending).toHaveLength(1);

    // Later: still answered at once from memory, while a background request asks again...
    now.mockReturnValue(1_020_000);
    expect((await request('GET', '/coaches', { query: { filter: { limit: 1000 } }, schema: ListSchema })).data).toEqual([{ id: 'c1' }]);
    expect(pending).toHaveLength(2);
    pending[1].answer([{ id: 'c1' }, { id: 'c2' }]);
    await settle();
    // ...whose answer the next read gets.
    expect((await request('GET', '/coaches', { query: { filter: { limit: 1000 } }, schema: ListSchema })).data).toEqual([{ id: 'c1' }, { id: 'c2' }]);
  });

  test.each([['/diagnosis'], ['/cost-rates'], ['/system/settings'], ['/news']])('%s is kept too', async (path) => {
    const pending = controlledFetch();
    const first = request('GET', path, { schema: v.unknown() });
    await settle();
    pending[0].answer([]);
    await first;
    await request('GET', path, { schema: v.unknown() });
    expect(pending).toHaveLength(1);
  });

  test('patient data is never kept: every read asks the server', async () => {
    const pending = controlledFetch();
    for (let i = 0; i < 2; i++) {
      const read = request('GET', '/patients/p1/coaches', { schema: ListSchema });
      await settle();
      pending[i].answer([]);
      await read;
    }
    expect(pending).toHaveLength(2);
  });

  test('a change the coach makes to a collection drops what was kept of it', async () => {
    const pending = controlledFetch();
    const read = () => request('GET', '/news', { schema: v.unknown() });
    const first = read();
    await settle();
    pending[0].answer([]);
    await first;
    const change = request('POST', '/news/n1/read/coach-1');
    await settle();
    pending[1].answer(null);
    await change;
    void read();
    await settle();
    expect(pending.map((p) => `${p.method} ${p.url}`)).toEqual(['GET /v2/news', 'POST /v2/news/n1/read/coach-1', 'GET /v2/news']);
  });

  test('a new session starts with nothing kept', async () => {
    const pending = controlledFetch();
    const first = request('GET', '/news', { schema: v.unknown() });
    await settle();
    pending[0].answer([]);
    await first;
    setToken('tok-other');
    void request('GET', '/news', { schema: v.unknown() });
    await settle();
    expect(pending).toHaveLength(2);
  });
});

describe('the connection state', () => {
  test('goes offline when a request gets no answer and back online with the next answer', async () => {
    const pending = controlledFetch();
    const lost = request('GET', '/patients');
    await settle();
    pending[0].fail(new TypeError('Failed to fetch'));
    await expect(lost).rejects.toMatchObject({ status: 0 });
    expect(online.value).toBe(false);
    const next = request('GET', '/patients');
    await settle();
    pending[1].answer([]);
    await next;
    expect(online.value).toBe(true);
  });
});

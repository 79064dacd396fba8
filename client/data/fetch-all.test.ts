import { describe, test, expect, vi } from 'vitest';
import { ListCancelled, MAX_PAGE, fetchAll, fetchAllSince, readAll, type Page, type Since } from './fetch-all.ts';

const rows = Array.from({ length: 23 }, (_, i) => ({ n: i }));
const server = (all = rows, sendTotal = true) =>
  vi.fn(
    async ({ limit, skip }: { limit: number; skip: number }): Promise<Page<{ n: number }>> => ({
      data: all.slice(skip, skip + limit),
      total: sendTotal ? all.length : null,
    }),
  );

describe('fetchAll', () => {
  test('fetches every row page by page with limit and skip', async () => {
    const page = server();
    const progress: unknown[] = [];
    const result = await fetchAll(page, { pageSize: 10, signal: new AbortController().signal, onProgress: (p) => progress.push(p) });
    expect(result).toEqual(rows);
    expect(page.mock.calls.map((c) => c[0])).toEqual([
      { limit: 10, skip: 0 },
      { limit: 10, skip: 10 },
      { limit: 10, skip: 20 },
    ]);
    expect(progress).toEqual([
      { done: 0, total: null },
      { done: 10, total: 23 },
      { done: 20, total: 23 },
      { done: 23, total: 23 },
    ]);
  });

  test('without X-Total-Count it stops at the first short page', async () => {
    const page = server(rows, false);
    expect(await fetchAll(page, { pageSize: 10, signal: new AbortController().signal })).toHaveLength(23);
    expect(page).toHaveBeenCalledTimes(3);
  });

  test('an exact multiple of the page size needs no extra empty call when the total is known', async () => {
    const page = server(rows.slice(0, 20));
    await fetchAll(page, { pageSize: 10, signal: new AbortController().signal });
    expect(page).toHaveBeenCalledTimes(2);
  });

  test('stops on an empty page even if the total promised more rows', async () => {
    const page = vi.fn(async () => ({ data: [], total: 50 }));
    expect(await fetchAll(page, { pageSize: 10, signal: new AbortController().signal })).toEqual([]);
    expect(page).toHaveBeenCalledTimes(1);
  });

  test('cancelling stops before the next page is requested', async () => {
    const controller = new AbortController();
    const page = server();
    const run = fetchAll(page, {
      pageSize: 10,
      signal: controller.signal,
      onProgress: ({ done }) => {
        if (done === 10) controller.abort();
      },
    });
    await expect(run).rejects.toBeInstanceOf(ListCancelled);
    expect(page).toHaveBeenCalledTimes(1);
  });

  test('a failed page is reported as the failure, not as a cancel', async () => {
    const failure = new Error('502');
    const page = vi
      .fn()
      .mockResolvedValueOnce({ data: rows.slice(0, 10), total: 23 })
      .mockRejectedValueOnce(failure);
    await expect(fetchAll(page, { pageSize: 10, signal: new AbortController().signal })).rejects.toBe(failure);
  });
});

describe('readAll', () => {
  const many = Array.from({ length: 2 * MAX_PAGE + 500 }, (_, i) => ({ n: i }));
  const upstream = (sendTotal: boolean) =>
    vi.fn(
      async ({ limit, skip = 0 }: { limit: number; skip?: number }): Promise<Page<{ n: number }>> => ({
        data: many.slice(skip, skip + Math.min(limit, MAX_PAGE)),
        total: sendTotal ? many.length : null,
      }),
    );

  test.each([
    ['with', true],
    ['without', false],
  ])('reads a list longer than one page to its end (%s X-Total-Count), not only its first page', async (_, sendTotal) => {
    const load = upstream(sendTotal);
    const { data, total } = await readAll(load);
    expect(data).toEqual(many);
    expect(total).toBe(many.length);
    expect(load.mock.calls.map(([range]) => range)).toEqual([
      { limit: MAX_PAGE },
      { limit: MAX_PAGE, skip: MAX_PAGE },
      { limit: MAX_PAGE, skip: 2 * MAX_PAGE },
    ]);
  });

  test('asks once, without skip, for a list that fits in one page', async () => {
    const load = vi.fn(async () => ({ data: [{ n: 1 }, { n: 2 }], total: 2 }));
    expect(await readAll(load)).toEqual({ data: [{ n: 1 }, { n: 2 }], total: 2 });
    expect(load.mock.calls).toEqual([[{ limit: MAX_PAGE }]]);
  });
});

describe('fetchAllSince', () => {
  // Notes in the order of their time, then id; several share a time, some across a page's end.
  const times = ['01', '02', '02', '02', '03', '04', '04', '05', '05', '05', '05', '06', '07'];
  const notes = times.map((t, i) => ({ id: `n${String(i).padStart(2, '0')}`, at: `2026-11-01T00:00:${t}.000Z` }));
  /** The list as the upstream answers it: from `since` on (or the period's start), in order, past `skip` there. */
  const since = (all = notes, total: number | null = all.length) =>
    vi.fn(async ({ since, skip, limit }: Since): Promise<Page<(typeof notes)[number]>> => {
      const from = all.filter((n) => since === undefined || n.at >= since);
      return { data: from.slice(skip, skip + limit), total: since === undefined ? total : from.length };
    });

  test.each([1, 2, 3, 4, 5, 13, 20])('reads every row once, in order, with pages of %i', async (pageSize) => {
    const page = since();
    expect(await fetchAllSince(page, (n) => n.at, { pageSize, signal: new AbortController().signal })).toEqual(notes);
  });

  test('asks each page from the last time read on, skipping only the rows of that time already read', async () => {
    const page = since();
    await fetchAllSince(page, (n) => n.at, { pageSize: 4, signal: new AbortController().signal });
    expect(page.mock.calls.map((c) => c[0])).toEqual([
      { since: undefined, skip: 0, limit: 4 },
      { since: '2026-11-01T00:00:02.000Z', skip: 3, limit: 4 },
      { since: '2026-11-01T00:00:05.000Z', skip: 1, limit: 4 },
      { since: '2026-11-01T00:00:06.000Z', skip: 1, limit: 4 },
    ]);
  });

  test('shows the total of the first page as the progress total, and stops at the first short page', async () => {
    const page = since(notes, 13);
    const progress: unknown[] = [];
    await fetchAllSince(page, (n) => n.at, { pageSize: 5, signal: new AbortController().signal, onProgress: (p) => progress.push(p) });
    expect(progress).toEqual([
      { done: 0, total: null },
      { done: 5, total: 13 },
      { done: 10, total: 13 },
      { done: 13, total: 13 },
    ]);
    expect(page).toHaveBeenCalledTimes(3);
  });

  test('leaves the order of the keys to the server, whose collation may differ from JavaScript', async () => {
    // As a database collation that ignores punctuation orders ids: "p1" < "p-2" < "p10" < "p-11".
    const bare = (id: string) => id.replace('-', '');
    const compare = (a: string, b: string) => bare(a).localeCompare(bare(b), 'en', { numeric: true });
    const ids = ['p-11', 'p1', 'p10', 'p-2', 'p-3', 'p30', 'p4'].sort(compare).map((id) => ({ id }));
    const page = vi.fn(async ({ since, skip, limit }: Since) => {
      const from = ids.filter((row) => since === undefined || compare(row.id, since) >= 0);
      return { data: from.slice(skip, skip + limit), total: null };
    });
    expect(await fetchAllSince(page, (row) => row.id, { pageSize: 2, signal: new AbortController().signal })).toEqual(ids);
  });

  test('fails instead of looping when the server ignores the bound and answers from the start again', async () => {
    const page = vi.fn(async ({ skip, limit }: Since) => ({ data: notes.slice(skip, skip + limit), total: null }));
    await expect(fetchAllSince(page, (n) => n.at, { pageSize: 4, signal: new AbortController().signal })).rejects.toThrow(/before the one/);
    // The second page happens to start at the bound's time; the third starts before it.
    expect(page).toHaveBeenCalledTimes(3);
  });

  test('cancelling stops before the next page is requested', async () => {
    const controller = new AbortController();
    const page = vi.fn(async (range: Since) => {
      controller.abort();
      return (await since()(range)) as Page<(typeof notes)[number]>;
    });
    await expect(fetchAllSince(page, (n) => n.at, { pageSize: 4, signal: controller.signal })).rejects.toBeInstanceOf(ListCancelled);
    expect(page).toHaveBeenCalledTimes(1);
  });
});

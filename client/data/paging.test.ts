import { describe, expect, test, vi } from 'vitest';
import { countRows, listCount, listPage } from './paging.ts';

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: String(i) }));
/** A list call over `all` rows that honours limit/skip and sends X-Total-Count only when `counts`. */
const upstream = (all: number, counts: boolean) =>
  vi.fn(async ({ limit, skip = 0 }: { limit: number; skip?: number }) => ({
    data: rows(Math.max(0, Math.min(limit, all - skip))),
    total: counts ? all : null,
  }));

describe('paging without X-Total-Count', () => {
  test('asks for one row more than the page and shows only the page', async () => {
    const load = upstream(60, false);
    const page = await listPage(load, 25, 25);
    expect(load).toHaveBeenCalledWith({ limit: 26, skip: 25 });
    expect(page.data).toHaveLength(25);
    expect(page.total).toBeNull();
    expect(listCount(page.total, 50)).toEqual({ count: 50, exact: false });
  });

  test('knows the exact total once the last page is reached', async () => {
    const page = await listPage(upstream(60, false), 25, 50);
    expect(page).toEqual({ data: rows(10), total: 60 });
    expect(listCount(page.total, 60)).toEqual({ count: 60, exact: true });
  });

  test('a page that is exactly full and the last one is still exact', async () => {
    expect((await listPage(upstream(50, false), 25, 25)).total).toBe(50);
  });

  test('uses X-Total-Count where the upstream sends it', async () => {
    const page = await listPage(upstream(60, true), 25, 0);
    expect(page).toEqual({ data: rows(25), total: 60 });
  });
});

describe('counting rows for tiles', () => {
  test('reads X-Total-Count of a limit-0 call', async () => {
    const load = upstream(7, true);
    expect(await countRows(load, 99)).toEqual({ count: 7, exact: true });
    expect(load).toHaveBeenCalledTimes(1);
  });

  test('counts the rows of an upstream that answers limit 0 with every row', async () => {
    const load = vi.fn(async () => ({ data: rows(12), total: null }));
    expect(await countRows(load, 99)).toEqual({ count: 12, exact: true });
  });

  test('asks for cap + 1 rows when limit 0 gives neither rows nor a count', async () => {
    const honouring = vi.fn(async ({ limit }: { limit: number }) => ({ data: rows(Math.min(limit, 250)), total: null }));
    expect(await countRows(honouring, 99)).toEqual({ count: 99, exact: false });
    expect(honouring).toHaveBeenLastCalledWith({ limit: 100 });
    const few = vi.fn(async ({ limit }: { limit: number }) => ({ data: rows(Math.min(limit, 3)), total: null }));
    expect(await countRows(few, 99)).toEqual({ count: 3, exact: true });
  });
});

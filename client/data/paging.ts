import type { ApiResult } from './http.ts';

/*
 * Paging that works with and without X-Total-Count. A customer's API may not count its lists, so every page
 * is asked for with one row more than it shows: that row tells whether a next page exists. The total is then
 * known exactly when the header says so or when the last page has been reached; otherwise only "more than".
 */

/** How many rows a list has: exactly `count`, or more than `count` (exact = false). */
export interface ListCount {
  count: number;
  exact: boolean;
}

/** `total` of a page: X-Total-Count, or the row count when this page is the last one; null = more than shown. */
export async function listPage<T>(load: (range: { limit: number; skip: number }) => Promise<ApiResult<T[]>>, limit: number, skip = 0): Promise<ApiResult<T[]>> {
  const result = await load({ limit: limit + 1, skip });
  const rows = result.data.slice(0, limit);
  if (result.total !== null) return { data: rows, total: result.total };
  return { data: rows, total: result.data.length > limit ? null : skip + rows.length };
}

/** The count to show for a page's `total` (from listPage) after `seen` rows (skip + rows on the page). */
export function listCount(total: number | null, seen: number): ListCount {
  return total === null ? { count: seen, exact: false } : { count: total, exact: true };
}

/**
 * The number of rows matching a filter, for tiles that show counts only. Asks with limit 0 and reads
 * X-Total-Count; an upstream that ignores limit 0 (LoopBack's memory connector answers every row) is counted
 * by its answer; one that honours it without a count is asked for up to `cap` + 1 rows.
 */
export async function countRows(load: (range: { limit: number }) => Promise<ApiResult<unknown[]>>, cap: number): Promise<ListCount> {
  const first = await load({ limit: 0 });
  if (first.total !== null) return { count: first.total, exact: true };
  if (first.data.length > 0) return { count: first.data.length, exact: true };
  const rows = (await load({ limit: cap + 1 })).data.length;
  return rows > cap ? { count: cap, exact: false } : { count: rows, exact: true };
}

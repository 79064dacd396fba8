/** One page of a list call: the rows and X-Total-Count (null when the server did not send it). */
export interface Page<T> {
  data: T[];
  total: number | null;
}

export interface Progress {
  done: number;
  /** Known after the first page; null while unknown. */
  total: number | null;
}

export interface FetchAllOptions {
  pageSize: number;
  signal: AbortSignal;
  onProgress?: (progress: Progress) => void;
}

/** Thrown when the person cancelled; callers tell it apart from a failure. */
export class ListCancelled extends Error {
  constructor() {
    super('Reading the list cancelled');
    this.name = 'ListCancelled';
  }
}

function checkCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw new ListCancelled();
}

/**
 * Every row of a filtered list, fetched page by page with limit/skip so no single answer gets huge and
 * the progress bar can move. Stops when X-Total-Count rows have arrived, or - without a total - at the
 * first short page. An empty page before the total is reached also stops (rows deleted meanwhile), so
 * the loop can never run forever.
 */
export async function fetchAll<T>(
  fetchPage: (range: { limit: number; skip: number }, signal: AbortSignal) => Promise<Page<T>>,
  { pageSize, signal, onProgress }: FetchAllOptions,
): Promise<T[]> {
  const rows: T[] = [];
  let total: number | null = null;
  onProgress?.({ done: 0, total: null });
  for (;;) {
    checkCancelled(signal);
    let page: Page<T>;
    try {
      page = await fetchPage({ limit: pageSize, skip: rows.length }, signal);
    } catch (error) {
      if (signal.aborted || (error as Error)?.name === 'AbortError') throw new ListCancelled();
      throw error;
    }
    checkCancelled(signal);
    rows.push(...page.data);
    if (page.total !== null) total = page.total;
    onProgress?.({ done: rows.length, total: total === null ? null : Math.max(total, rows.length) });
    const complete = total !== null ? rows.length >= total : page.data.length < pageSize;
    if (complete || page.data.length === 0) return rows;
  }
}

/** Where the next page of fetchAllSince starts: rows whose key is at or after `since`, past the `skip` there already read. */
export interface Since {
  since: string | undefined;
  skip: number;
  limit: number;
}

/**
 * Every row of a list ordered by one key (a time or the id, then the id), each page asked from the last row's key on
 * instead of by a growing skip (keyset paging in the contract's own filter: `gte` on the key, `skip` the rows of that
 * very key already read). A skip walks past every row before the page, so page n costs n times the first and an
 * export grows with the square of its length; from the last key on, every page costs what the first does.
 * `fetchPage` must order by the key and then the id, ascending, and take `since` as the key's lower bound (one
 * bound: SQLite walks from the lower of two). Only the server compares keys (its collation decides their order).
 * Progress shows the first page's total, when the server sent one.
 */
export async function fetchAllSince<T>(
  fetchPage: (range: Since, signal: AbortSignal) => Promise<Page<T>>,
  keyOf: (row: T) => string,
  { pageSize, signal, onProgress }: FetchAllOptions,
): Promise<T[]> {
  const rows: T[] = [];
  /** Keys of the rows read, to tell a server that ignored the bound (it would answer them again, page after page). */
  const seen = new Set<string>();
  let total: number | null = null;
  let range: Since = { since: undefined, skip: 0, limit: pageSize };
  onProgress?.({ done: 0, total: null });
  for (;;) {
    checkCancelled(signal);
    let page: Page<T>;
    try {
      page = await fetchPage(range, signal);
    } catch (error) {
      if (signal.aborted || (error as Error)?.name === 'AbortError') throw new ListCancelled();
      throw error;
    }
    checkCancelled(signal);
    const first = page.data.length > 0 ? keyOf(page.data[0]) : undefined;
    if (range.since !== undefined && first !== undefined && first !== range.since && seen.has(first)) {
      throw new Error('The list answered rows before the one it was asked from');
    }
    for (const row of page.data) seen.add(keyOf(row));
    rows.push(...page.data);
    if (range.since === undefined) total = page.total;
    onProgress?.({ done: rows.length, total: total === null ? null : Math.max(total, rows.length) });
    if (page.data.length < pageSize) return rows;
    range = { since: keyOf(rows[rows.length - 1]), skip: 0, limit: pageSize };
    // The rows of the last key read so far are the first ones at that key: the next page starts after them.
    for (let i = rows.length - 1; i >= 0 && keyOf(rows[i]) === range.since; i--) range.skip++;
  }
}

/** The most rows the /v2 contract answers to one request (its filter's limit is 0 to 1000). */
export const MAX_PAGE = 1000;

/**
 * The whole list, for a screen that uses all of it (a coach picker, a reference table, the records of a period):
 * page after page until the list ends, so a list longer than one page is never cut off unseen. The first request
 * carries no skip, the same request a single page makes: a list that fits costs one request and shares its cache.
 */
export async function readAll<T>(
  load: (range: { limit: number; skip?: number }) => Promise<Page<T>>,
  signal: AbortSignal = new AbortController().signal,
): Promise<{ data: T[]; total: number }> {
  const rows = await fetchAll((range) => load(range.skip ? range : { limit: range.limit }), { pageSize: MAX_PAGE, signal });
  return { data: rows, total: rows.length };
}

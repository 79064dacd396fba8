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
export class ExportCancelled extends Error {
  constructor() {
    super('Export cancelled');
    this.name = 'ExportCancelled';
  }
}

function checkCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw new ExportCancelled();
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
      if (signal.aborted || (error as Error)?.name === 'AbortError') throw new ExportCancelled();
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

import type { Db } from '../../db/index.ts';

/*
 * Where the next page of a walk through the detail table starts. The export asks page after page with a growing
 * skip; an OFFSET would read every row before the page again, so each answer leaves the sort keys of its last row
 * here, under the query, the row count it saw and the skip the next page will ask for. The next page then starts
 * right after those keys through the index. A cursor is only taken while the row count is unchanged and for a few
 * minutes; otherwise the page is read with OFFSET as before.
 */

const TTL_MS = 5 * 60_000;
const MAX_CURSORS = 1000;

interface Cursor {
  values: unknown[];
  until: number;
}

// Per database, so two instances in one process (tests) never share one.
const byDatabase = new WeakMap<Db, Map<string, Cursor>>();

function cursorsOf(db: Db): Map<string, Cursor> {
  let cursors = byDatabase.get(db);
  if (!cursors) {
    cursors = new Map();
    byDatabase.set(db, cursors);
  }
  return cursors;
}

/** The sort keys after which the page at `key` starts, if a previous page left them and they are still fresh. */
export function takeCursor(db: Db, key: string, now = Date.now()): unknown[] | undefined {
  const cursors = cursorsOf(db);
  const cursor = cursors.get(key);
  if (!cursor) return undefined;
  cursors.delete(key);
  return cursor.until > now ? cursor.values : undefined;
}

/** Leaves the sort keys of a page's last row for the page after it; the oldest cursors go first when there are many. */
export function keepCursor(db: Db, key: string, values: unknown[], now = Date.now()): void {
  const cursors = cursorsOf(db);
  cursors.set(key, { values, until: now + TTL_MS });
  while (cursors.size > MAX_CURSORS) cursors.delete(cursors.keys().next().value as string);
}

/**
 * Writes of one record from this process take turns. Every write is still a compare-and-swap on the version (so
 * writers in other processes on the same database stay correct), but without turns twenty writers on one record
 * would all read the same version, nineteen would lose the swap and read again, and some would run out of
 * attempts. In turn, a write without If-Match lands on the first try and one with a stale If-Match gets its 412
 * at once. Holding no database connection while waiting keeps the pool free for everybody else.
 */
const tails = new Map<string, Promise<unknown>>();

export async function inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
  const before = tails.get(key) ?? Promise.resolve();
  const mine = before.then(work, work);
  // What the next writer waits for: this write's end, whether it succeeded or not.
  const tail = mine.then(
    () => undefined,
    () => undefined,
  );
  tails.set(key, tail);
  try {
    return await mine;
  } finally {
    if (tails.get(key) === tail) tails.delete(key);
  }
}

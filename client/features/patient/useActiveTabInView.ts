import { useEffect, useRef } from 'react';

/** Scrolls the row (only the row: scrollIntoView would move the page too) so that its open tab is in sight. */
function bringOpenTabIntoView(row: HTMLElement): void {
  const tab = row.querySelector<HTMLElement>('[aria-current="page"]');
  if (!tab) return;
  const outer = row.getBoundingClientRect();
  const inner = tab.getBoundingClientRect();
  if (inner.left >= outer.left && inner.right <= outer.right) return;
  row.scrollLeft += inner.left - outer.left - (outer.width - inner.width) / 2;
}

/**
 * Keeps the open tab on screen in a tab row that scrolls sideways (the record's tabs on a phone): a tab opened by a
 * link, or the last one, would otherwise sit out of sight. `key` changes whenever the open tab or the row changes.
 * The row may still be hidden while the page settles, so it is also checked whenever it gets (another) size.
 */
export function useActiveTabInView<T extends HTMLElement>(key: string) {
  const ref = useRef<T>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key is the trigger; the row itself is read through the ref
  useEffect(() => {
    const row = ref.current;
    if (!row) return;
    bringOpenTabIntoView(row);
    if (typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(() => bringOpenTabIntoView(row));
    observer.observe(row);
    return () => observer.disconnect();
  }, [key]);
  return ref;
}

import { useLayoutEffect, useRef, useState } from 'react';

/**
 * Width in px of the element the ref is attached to, following resizes (falls back to `initial` while it has none,
 * e.g. inside a page that is still hidden). Measured before the first paint: measured after it (useEffect), a chart
 * that arrived on a shown page was painted once at `initial` and then redrawn at its real width.
 */
export function useContainerWidth<T extends HTMLElement>(initial = 640) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(initial);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const w = Math.floor(element.getBoundingClientRect().width);
      if (w > 0) setWidth(w);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

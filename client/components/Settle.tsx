import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { Loading } from './Loading.tsx';

const Revealed = createContext(true);
/**
 * False while the page is still hidden behind its loading line: focus and scrolling wait for true (a hidden
 * element cannot take focus). True outside a Settle.
 */
export const useRevealed = () => useContext(Revealed);

/** Never keep a page back longer than this: a slow section then shows its own loading line. */
export const HOLD_MS = 3000;

/**
 * Shows a page once it has loaded what it shows first, in one go, instead of section by section: on a slow line
 * each section arriving pushed the ones below it down (layout shift 0.58 on /information at 375 px). Until then
 * the page renders hidden (its code and data load meanwhile) behind one loading line. "Loaded" is what every
 * screen already says: nothing in it is marked aria-busy (a page's Suspense fallback, DataState's loading
 * lines, a table that is filling). The page shows once that holds for a frame, or after HOLD_MS at the latest.
 * A new `scope` (the path) hides it again for the next page; later loads (a filter, a retry) never hide it.
 */
export function Settle({ scope, children }: { scope: string; children?: ReactNode }) {
  const [shown, setShown] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const revealed = shown === scope;

  useEffect(() => {
    const element = box.current;
    if (revealed || !element) return undefined;
    let frame = 0;
    const check = () => {
      cancelAnimationFrame(frame);
      // One frame of quiet: a load that finished may be replaced by the loads of what it revealed.
      frame = requestAnimationFrame(() => {
        if (!element.querySelector('[aria-busy="true"]')) setShown(scope);
      });
    };
    const observer = new MutationObserver(check);
    observer.observe(element, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-busy'] });
    check();
    const timer = setTimeout(() => setShown(scope), HOLD_MS);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [scope, revealed]);

  return (
    <>
      {revealed ? null : <Loading />}
      <div ref={box} className="settle" hidden={!revealed}>
        <Revealed.Provider value={revealed}>{children}</Revealed.Provider>
      </div>
    </>
  );
}

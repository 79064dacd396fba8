import { useCallback, useEffect, useRef, useState } from 'react';
import { isAbortError } from '../api/http.ts';

export type Resource<T> =
  | { status: 'loading'; data?: T; total: number | null; error?: undefined }
  | { status: 'error'; data?: T; total: number | null; error: unknown }
  | { status: 'ready'; data: T; total: number | null; error?: undefined };

export interface Loaded<T> {
  data: T;
  total?: number | null;
}

/**
 * Load something when the key changes; an older answer never overwrites a newer one (a fast
 * typist in the search box would otherwise see the results of an earlier query last).
 * While reloading, the previous data stays visible so a list does not blink empty.
 */
export function useResource<T>(
  load: (signal: AbortSignal) => Promise<Loaded<T>>,
  key: string,
): Resource<T> & { reload: () => void; setData: (update: (data: T) => T) => void } {
  const [state, setState] = useState<Resource<T>>({ status: 'loading', total: null });
  const [attempt, setAttempt] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ status: 'loading', data: s.data, total: s.total }));
    loadRef.current(controller.signal).then(
      (result) => {
        if (!controller.signal.aborted) setState({ status: 'ready', data: result.data, total: result.total ?? null });
      },
      (error: unknown) => {
        // An abort (this effect's own cleanup, or the session ending on logout) is no failure to show.
        if (controller.signal.aborted || isAbortError(error)) return;
        setState((s) => ({ status: 'error', data: s.data, total: s.total, error }));
      },
    );
    return () => controller.abort();
  }, [key, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const setData = useCallback((update: (data: T) => T) => {
    setState((s) => (s.status === 'ready' ? { ...s, data: update(s.data) } : s));
  }, []);
  return { ...state, reload, setData };
}

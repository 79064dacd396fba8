import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { isAbortError } from './http.ts';
import { onReconnect } from '../lib/connection.ts';

/** A call that got no answer at all (ApiError status 0): worth trying again once the line is back. */
const noAnswer = (error: unknown) => (error as { status?: unknown } | null)?.status === 0;

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
 * While reloading, the previous data stays visible so a list does not blink empty. A load that got no
 * answer (offline, server unreachable) is tried again when the connection returns (lib/connection.ts).
 */
/** What a screen reads of a query: its state, and reload() and setData() (a save's answer shown without asking again). */
export type Query<T> = Resource<T> & { reload: () => void; setData: (update: (data: T) => T) => void };

export function useQuery<T>(load: (signal: AbortSignal) => Promise<Loaded<T>>, key: string): Query<T> {
  const [state, setState] = useState<Resource<T>>({ status: 'loading', total: null });
  const [attempt, setAttempt] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  // A layout effect: the request leaves as soon as the screen has asked for it, not a frame later after the browser
  // has painted (on a phone a frame is tens of milliseconds, one more wait on every filter and page).
  // biome-ignore lint/correctness/useExhaustiveDependencies: loads again only when the key or the retry attempt changes; the latest load function is read through loadRef
  useLayoutEffect(() => {
    const controller = new AbortController();
    let stopWaiting: (() => void) | null = null;
    setState((s) => ({ status: 'loading', data: s.data, total: s.total }));
    loadRef.current(controller.signal).then(
      (result) => {
        if (!controller.signal.aborted) setState({ status: 'ready', data: result.data, total: result.total ?? null });
      },
      (error: unknown) => {
        // An abort (this effect's own cleanup, or the session ending on logout) is no failure to show.
        if (controller.signal.aborted || isAbortError(error)) return;
        setState((s) => ({ status: 'error', data: s.data, total: s.total, error }));
        // For want of a connection: load again as soon as the server answers.
        if (noAnswer(error)) stopWaiting = onReconnect(() => setAttempt((n) => n + 1));
      },
    );
    return () => {
      controller.abort();
      stopWaiting?.();
    };
  }, [key, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const setData = useCallback((update: (data: T) => T) => {
    setState((s) => (s.status === 'ready' ? { ...s, data: update(s.data) } : s));
  }, []);
  return { ...state, reload, setData };
}

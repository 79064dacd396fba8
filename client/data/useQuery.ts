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

/** A load started ahead of its screen (showWhenLoaded), until the useQuery that asks for its key takes it over. */
interface Started {
  key: string;
  answer: Promise<Loaded<unknown>>;
  controller: AbortController;
}
let started: Started | null = null;

/** How long a change waits for its answer before the screen shows it loading (the earlier rows dimmed). */
export const SHOW_LOADING_AFTER_MS = 250;

/**
 * A change of what a screen shows (a search, a filter, a page), made the way a coach sees it happen: the screen's
 * load starts at once, and `show` (which changes what the screen asks for: the URL) is called when its answer is
 * there, or after SHOW_LOADING_AFTER_MS when it is slow. The screen is then drawn once, with the answer, instead of
 * first for the new key, loading, then again for the answer: on a phone-class CPU each of those drawings and the
 * frame painted between them took about as long as the server's answer (the patient list's search at 4x CPU
 * throttling). The next useQuery effect with `key` takes the load over (and its cancelling); one that no screen took
 * when it was shown is cancelled, as is an earlier change's still waiting.
 */
export function showWhenLoaded<T>(key: string, load: (signal: AbortSignal) => Promise<Loaded<T>>, show: () => void): void {
  // The same change again while its answer is awaited (the search box's Enter after its pause): that one shows it.
  if (started?.key === key) return;
  started?.controller.abort();
  const controller = new AbortController();
  const entry: Started = { key, answer: load(controller.signal), controller };
  started = entry;
  let shown = false;
  const reveal = () => {
    // Shown already, or a later change took its place.
    if (shown || started !== entry) return;
    shown = true;
    clearTimeout(timer);
    show();
    setTimeout(() => {
      if (started !== entry) return;
      started = null;
      controller.abort();
    }, 0);
  };
  const timer = setTimeout(reveal, SHOW_LOADING_AFTER_MS);
  // A failure is the taking screen's to show: it is shown as soon as it is known.
  entry.answer.then(reveal, reveal);
}

/**
 * A change back to what the screen already shows: a change still waiting for its answer is cancelled, or its answer
 * would later show what the coach has just undone (a coach chosen, then "Alle Coaches" again within 250 ms).
 */
export function cancelWaiting(): void {
  started?.controller.abort();
  started = null;
}

/** The load showWhenLoaded began for `key`, from now on cancelled with `signal`; undefined when there is none. */
function takeStarted<T>(key: string, signal: AbortSignal): Promise<Loaded<T>> | undefined {
  if (started?.key !== key) return undefined;
  const { answer, controller } = started;
  started = null;
  signal.addEventListener('abort', () => controller.abort(), { once: true });
  return answer as Promise<Loaded<T>>;
}

/** What the hook keeps: the last state it set, and for which key and attempt (`asked`). */
type Kept<T> = Resource<T> & { asked: string };

export function useQuery<T>(load: (signal: AbortSignal) => Promise<Loaded<T>>, key: string): Query<T> {
  const [attempt, setAttempt] = useState(0);
  const asked = `${attempt} ${key}`;
  const [kept, setKept] = useState<Kept<T>>({ status: 'loading', total: null, asked });
  const loadRef = useRef(load);
  loadRef.current = load;
  const askedRef = useRef(asked);
  askedRef.current = asked;

  // A layout effect: the request leaves as soon as the screen has asked for it, not a frame later after the browser
  // has painted (on a phone a frame is tens of milliseconds, one more wait on every filter and page).
  // biome-ignore lint/correctness/useExhaustiveDependencies: loads again only when the key or the retry attempt changes; the latest load function is read through loadRef
  useLayoutEffect(() => {
    const controller = new AbortController();
    let stopWaiting: (() => void) | null = null;
    (takeStarted<T>(key, controller.signal) ?? loadRef.current(controller.signal)).then(
      (result) => {
        if (!controller.signal.aborted) setKept({ status: 'ready', data: result.data, total: result.total ?? null, asked });
      },
      (error: unknown) => {
        // An abort (this effect's own cleanup, or the session ending on logout) is no failure to show.
        if (controller.signal.aborted || isAbortError(error)) return;
        setKept((s) => ({ status: 'error', data: s.data, total: s.total, error, asked }));
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
    setKept((s) => (s.status === 'ready' && s.asked === askedRef.current ? { ...s, data: update(s.data) } : s));
  }, []);
  // What was kept is for an earlier key or attempt: this one is loading, with the earlier data still shown. Derived
  // here rather than set by the effect, which drew the whole screen once more for it.
  const { asked: keptFor, ...resource } = kept;
  const state: Resource<T> = keptFor === asked ? resource : { status: 'loading', data: resource.data, total: resource.total };
  return { ...state, reload, setData };
}

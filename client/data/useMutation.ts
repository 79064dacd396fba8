import { useRef, useState } from 'react';

/** A request started by a click or a submit, with what the screen shows of it. */
export interface Action<E> {
  /** True while it runs: its button is disabled, and a second start is ignored rather than sent twice. */
  busy: boolean;
  /** What the last failure shows, kept until the next start; null after a success. */
  error: E | null;
  /** Runs `action` unless one is running; resolves to true when it succeeded. Never rejects. */
  run: (action: () => Promise<unknown>) => Promise<boolean>;
  /** Shows a problem the form found before sending anything (a missing choice, a date in the past). */
  fail: (error: E) => void;
  /** Removes the message (the person changed what it was about). */
  clear: () => void;
}

const keep = (failure: unknown) => failure;

/**
 * The one way a screen runs a request it starts: busy while it runs, the failure kept to be shown.
 * `describe` turns a failure into what the screen shows; null where something else shows it (the
 * conflict notice shows a concurrent change with the other version, so a ConflictError is not an error text).
 */
export function useMutation<E = unknown>(describe: (failure: unknown) => E | null = keep as (failure: unknown) => E): Action<E> {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<E | null>(null);
  // The state above arrives with the next render; a double click arrives before it.
  const running = useRef(false);

  async function run(action: () => Promise<unknown>): Promise<boolean> {
    if (running.current) return false;
    running.current = true;
    setBusy(true);
    setError(null);
    try {
      await action();
      return true;
    } catch (failure) {
      setError(describe(failure));
      return false;
    } finally {
      running.current = false;
      setBusy(false);
    }
  }

  return { busy, error, run, fail: setError, clear: () => setError(null) };
}

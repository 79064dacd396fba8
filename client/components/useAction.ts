import { useState } from 'react';

/**
 * A request started by a click: `busy` while it runs (so its button is disabled and cannot send it twice),
 * and the failure kept in `error` to be shown until the next attempt.
 */
export function useAction(): { busy: boolean; error: unknown; run: (action: () => Promise<unknown>) => Promise<void> } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function run(action: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  return { busy, error, run };
}

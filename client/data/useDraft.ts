import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { markUnsaved } from '../lib/unsaved.ts';
import { dropDraft, keepDraft, storedDraft } from '../state/sealed-drafts.ts';

export interface StoredDraft<T> {
  /** The draft stored under the key when the form opened (after a reload or a failed save), or null. */
  restored: T | null;
  /** Keeps what the form holds now; the form counts as unsaved until clear(). */
  store(value: T): void;
  /** The server confirmed the save (or the person discarded the change): the draft goes, and leaving no longer asks. */
  clear(): void;
}

/**
 * A form's draft under `key`, sealed in localStorage while the session lives (state/sealed-drafts.ts; make the key
 * with draftStorageKey(): per coach and record, removed when the session ends), and the form's place in the leave
 * guard (lib/unsaved.ts): unsaved from the first store() until clear(), and also while a restored draft is on screen. null as key: nothing is stored (no coach signed in).
 */
export function useStoredDraft<T>(key: string | null): StoredDraft<T> {
  const [restored, setRestored] = useState<T | null>(() => (key ? storedDraft<T>(key) : null));
  // The leave guard knows this form by an id of its own: a form that goes away (its cleanup may run a frame later)
  // never unmarks the form that replaced it with the same draft.
  const id = `${useId()}:${key}`;
  const keyRef = useRef(key);
  if (keyRef.current !== key) {
    keyRef.current = key;
    setRestored(key ? storedDraft<T>(key) : null);
  }
  // biome-ignore lint/correctness/useExhaustiveDependencies: the unsaved mark follows the draft's key; id is fixed for the component's life
  useEffect(() => {
    if (!key) return;
    markUnsaved(id, storedDraft(key) !== null);
    return () => markUnsaved(id, false);
  }, [id]);

  const store = useCallback(
    (value: T) => {
      if (!key) return;
      keepDraft(key, value);
      markUnsaved(id, true);
    },
    [key, id],
  );
  const clear = useCallback(() => {
    if (!key) return;
    dropDraft(key);
    markUnsaved(id, false);
  }, [key, id]);
  return { restored, store, clear };
}

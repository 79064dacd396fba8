import { useCallback, useEffect, useId, useState } from 'react';
import { markUnsaved } from '../lib/unsaved.ts';
import { dropDraft, keepDraft, storedDraft } from '../state/sealed-drafts.ts';

const read = (key: string) => storedDraft<string>(key) ?? '';

/**
 * Text that survives a reload and a failed save within the session: what is typed is kept as a sealed draft under
 * `key` (state/sealed-drafts.ts), and only `clear()` - called after the server confirmed the save - removes it.
 * (Medplum empties its note box before the save succeeds; a coach then retypes a phone call from memory.)
 * Make `key` with draftStorageKey() (lib/drafts.ts): per coach and record, and removed when the session ends.
 * While the text differs from `pristine` (empty for a new note, the stored text for an edit) leaving asks first.
 */
export function useDraft(key: string, pristine = ''): [string, (value: string) => void, () => void] {
  const [value, setValue] = useState(() => read(key));
  useEffect(() => setValue(read(key)), [key]);
  const dirty = value !== '' && value !== pristine;
  // The leave guard's id for this box (see useStoredDraft: a replaced box never unmarks its successor).
  const id = `${useId()}:${key}`;
  useEffect(() => {
    markUnsaved(id, dirty);
    return () => markUnsaved(id, false);
  }, [id, dirty]);
  const update = useCallback(
    (next: string) => {
      setValue(next);
      if (next) keepDraft(key, next);
      else dropDraft(key);
      markUnsaved(id, next !== '' && next !== pristine);
    },
    [key, id, pristine],
  );
  const clear = useCallback(() => {
    setValue('');
    dropDraft(key);
    markUnsaved(id, false);
  }, [key, id]);
  return [value, update, clear];
}

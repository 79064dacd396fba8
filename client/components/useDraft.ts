import { useCallback, useEffect, useId, useState } from 'react';
import { removeDraft } from '../lib/draft-storage.ts';
import { markUnsaved } from '../lib/unsaved.ts';

// Plain text, not JSON: drafts written before the other forms had drafts stay readable.
function read(key: string): string {
  try {
    return localStorage.getItem(key) ?? '';
  } catch {
    return '';
  }
}
function write(key: string, text: string): void {
  try {
    localStorage.setItem(key, text);
  } catch {
    // Storage full or blocked: the text stays in the box, only the reload safety net is missing.
  }
}

/**
 * Text that survives a reload and a failed save: every keystroke is written to localStorage under
 * `key`, and only `clear()` - called after the server confirmed the save - removes it. (Medplum
 * empties its note box before the save succeeds; a coach then retypes a phone call from memory.)
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
      if (next) write(key, next);
      else removeDraft(key);
      markUnsaved(id, next !== '' && next !== pristine);
    },
    [key, id, pristine],
  );
  const clear = useCallback(() => {
    setValue('');
    removeDraft(key);
    markUnsaved(id, false);
  }, [key, id]);
  return [value, update, clear];
}

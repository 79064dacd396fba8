import { useCallback, useEffect, useState } from 'react';

function read(key: string): string {
  try {
    return localStorage.getItem(key) ?? '';
  } catch {
    return '';
  }
}

/**
 * Text that survives a reload and a failed save: every keystroke is written to localStorage under
 * `key`, and only `clear()` - called after the server confirmed the save - removes it. (Medplum
 * empties its note box before the save succeeds; a coach then retypes a phone call from memory.)
 * Make `key` with draftStorageKey() (lib/drafts.ts): per coach and record, and removed when the session ends.
 */
export function useDraft(key: string): [string, (value: string) => void, () => void] {
  const [value, setValue] = useState(() => read(key));
  useEffect(() => setValue(read(key)), [key]);
  const update = useCallback(
    (next: string) => {
      setValue(next);
      try {
        if (next) localStorage.setItem(key, next);
        else localStorage.removeItem(key);
      } catch {
        // Storage full or blocked: the text stays in the box, only the reload safety net is missing.
      }
    },
    [key],
  );
  const clear = useCallback(() => {
    setValue('');
    try {
      localStorage.removeItem(key);
    } catch {
      // see above
    }
  }, [key]);
  return [value, update, clear];
}

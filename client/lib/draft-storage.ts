/*
 * Reading and writing one form's draft (JSON) under a key made by draftStorageKey() (lib/drafts.ts). Apart from
 * drafts.ts so the first screen, which only ever removes drafts at the session's end, does not carry them.
 */

/** A stored draft (JSON), or null when there is none or it cannot be read. */
export function readDraft<T>(key: string): T | null {
  try {
    const text = localStorage.getItem(key);
    return text === null ? null : (JSON.parse(text) as T);
  } catch {
    return null;
  }
}

/** Stores a draft; false when storage is full or blocked (the form still holds the text, only the safety net is missing). */
export function writeDraft(key: string, value: unknown): boolean {
  try {
    localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}

export function removeDraft(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // Storage disabled: nothing was stored.
  }
}

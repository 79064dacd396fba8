/*
 * Drafts: text a person typed but has not saved yet (comments about a patient's health), kept in localStorage so a
 * reload or a failed save loses nothing. Every key starts with DRAFT_PREFIX and names the coach, so the drafts of a
 * session can be found and removed when the session ends (logout, 401, locked, expired), and the next coach at the
 * same browser never sees them. Kept apart from the hook so the session code needs no React.
 */
export const DRAFT_PREFIX = 'draft:';

/** The storage key of one draft: whose (coach), about what (patient), and which box (a new comment, one edit). */
export function draftStorageKey(coachId: string, patientId: string, box: string): string {
  return `${DRAFT_PREFIX}${encodeURIComponent(coachId)}:${encodeURIComponent(patientId)}:${box}`;
}

/** Removes every draft, or every draft not of `keepCoachId` (a new session keeps only its own coach's). */
export function clearDrafts(keepCoachId?: string): void {
  try {
    const keep = keepCoachId === undefined ? null : `${DRAFT_PREFIX}${encodeURIComponent(keepCoachId)}:`;
    const keys: string[] = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith(DRAFT_PREFIX) && !(keep && key.startsWith(keep))) keys.push(key);
    }
    for (const key of keys) localStorage.removeItem(key);
  } catch {
    // Storage disabled: nothing was stored.
  }
}

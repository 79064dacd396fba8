/*
 * Drafts: what a person typed but has not saved yet (comments, master data, assessments, appointments, coach
 * records: health data), kept in localStorage so a reload or a failed save loses nothing. Every key starts with
 * DRAFT_PREFIX and names the coach, so the drafts of a session can be found and removed when the session ends
 * (logout, 401, locked, expired), and the next coach at the same browser never sees them. Kept apart from the hooks
 * so the session code needs no React.
 */
export const DRAFT_PREFIX = 'draft:';

/** The storage key of one draft: whose (coach), about which record (a patient id, "coach-<id>", "new-patient"), which box. */
export function draftStorageKey(coachId: string, record: string, box: string): string {
  return `${DRAFT_PREFIX}${encodeURIComponent(coachId)}:${encodeURIComponent(record)}:${box}`;
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

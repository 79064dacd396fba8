/*
 * When this coach last opened each patient on this device, for "Neue Notiz in der App". Only ids and times are
 * kept (no name, no text): one localStorage entry per coach, { patientId: epoch ms }. Entries older than
 * KEEP_DAYS are dropped on write, so the entry stays small.
 */

const PREFIX = 'lastOpened:';
const KEEP_DAYS = 90;
const key = (coachId: string) => `${PREFIX}${encodeURIComponent(coachId)}`;

function read(coachId: string): Record<string, number> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(key(coachId)) ?? '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, number>) : {};
  } catch {
    // Storage blocked or the entry damaged: as if nothing was opened yet.
    return {};
  }
}

/** The moment (epoch ms) the coach last opened the patient here, or null. */
export function lastOpenedReader(coachId: string): (patientId: string) => number | null {
  const all = read(coachId);
  return (patientId) => (typeof all[patientId] === 'number' ? all[patientId] : null);
}

/** Records that the coach opened the patient now. */
export function markOpened(coachId: string, patientId: string, now: Date = new Date()): void {
  if (!coachId || !patientId) return;
  const oldest = now.getTime() - KEEP_DAYS * 86_400_000;
  const kept = Object.fromEntries(Object.entries(read(coachId)).filter(([, at]) => typeof at === 'number' && at >= oldest));
  kept[patientId] = now.getTime();
  try {
    localStorage.setItem(key(coachId), JSON.stringify(kept));
  } catch {
    // Storage full or blocked: notes then count as new a little longer; nothing else depends on it.
  }
}

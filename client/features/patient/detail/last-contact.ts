import { listComments } from '../../../api/comments.ts';
import { listSyncRecords } from '../../../api/sync-db.ts';
import { isoDay } from '../../../components/AftercareBadge.tsx';

export type ContactKind = 'call' | 'comment';
export interface LastContact {
  at: string;
  kind: ContactKind;
}

/** The newest events looked at for a held coaching: the app's own events (walks, reminders) share the collection. */
export const EVENTS_LOOKED_AT = 20;
const COACHINGS = new Set(['phone-coaching', 'video-coaching']);

/**
 * The patient's last contact for the header: the newer of the newest comment and the newest held phone or video
 * coaching up to now. Two small docs/product.md#calls list calls (one comment; the newest events up to today), so
 * the header does not wait for the comment or data tabs. A list the caller may not read counts as no contact.
 */
export async function loadLastContact(patientId: string, now: Date, signal: AbortSignal): Promise<{ data: LastContact | null }> {
  const none = { data: [] };
  const [comments, events] = await Promise.all([
    listComments({ where: { patientId }, order: 'createdAt DESC', limit: 1 }, signal).catch(() => none),
    listSyncRecords(patientId, 'event', { where: { date: { lte: isoDay(now) } }, order: 'date DESC', limit: EVENTS_LOOKED_AT }, signal).catch(() => none),
  ]);
  const held = events.data
    .filter((e) => COACHINGS.has(e.data.type) && e.data.done && Date.parse(e.data.start) <= now.getTime())
    .map((e): LastContact => ({ at: e.data.start, kind: 'call' }));
  const written = comments.data.map((c): LastContact => ({ at: c.createdAt, kind: 'comment' }));
  const newest = [...held, ...written].sort((a, b) => Date.parse(b.at) - Date.parse(a.at))[0] ?? null;
  return { data: newest };
}

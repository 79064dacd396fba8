import type { SyncRecord } from '../../../contract/schemas/sync-db.ts';
import { t } from '../../lib/i18n.ts';

/*
 * What kind of call an event records. The worklist stores the kind beside a title: the title is text in the
 * language of the moment (for readers that know no kinds, such as the patient's app), the kind lets every
 * screen show the call in the language the coach reads now. Records written before kinds existed have only
 * their title.
 */
export const CALL_KINDS = ['call-reached', 'call-not-reached', 'call-withdrawn'] as const;
export type CallKind = (typeof CALL_KINDS)[number];

type EventRecord = Pick<SyncRecord<'event'>, 'data'>;

/** The event's kind when it is one this client knows; null for old records and kinds of other writers. */
export function callKind(event: EventRecord): CallKind | null {
  const kind = event.data.kind;
  return (CALL_KINDS as readonly string[]).includes(kind ?? '') ? (kind as CallKind) : null;
}

/** The event's title in the current language when its kind is known, else the title it was stored with. */
export function eventTitle(event: EventRecord): string {
  const kind = callKind(event);
  return kind ? t(`timeline.callKind.${kind}`) : event.data.title;
}

/** Coaching calls: what the timeline lists as calls (other events are the app's plans and exercises). */
export const isCall = (event: EventRecord) => event.data.type === 'phone-coaching' || event.data.type === 'video-coaching';

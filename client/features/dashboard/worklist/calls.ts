import { ApiError } from '../../../data/http.ts';
import { updatePatient } from '../../../api/patients.ts';
import type { Patient } from '../../../../contract/schemas/patients.ts';
import { deleteSyncRecord, upsertSyncRecord } from '../../../api/sync-db.ts';
import { isoDay } from '../../../components/AftercareBadge.tsx';
import type { CallKind } from '../../../components/timeline/call-kind.ts';
import { t } from '../../../lib/i18n.ts';

/*
 * The worklist's writes, all docs/product.md#calls calls a customer's API has too:
 *   - a call is an event of the patient (PUT /patients/{id}/sync-db/event) of type "phone-coaching", held by this
 *     coach. "erreicht" is a held coaching (done: true): Controlling counts it, with its minutes, or with 0 minutes
 *     when no length was given. "nicht erreicht" is recorded for the patient too, as a call that did not take place
 *     (done: false, 0 minutes): it is no coaching, so Controlling does not count it;
 *   - undoing a call deletes its event; an API that cannot delete it keeps it as a withdrawn call (done: false,
 *     0 minutes, kind "call-withdrawn"), which Controlling does not count and the timeline leaves out;
 *   - a follow-up day (Wiedervorlage) is the patient field followUpAt (PATCH /patients/{id}): until that day the
 *     patient is left out of "Brauchen Aufmerksamkeit".
 */

export type CallOutcome = 'reached' | 'notReached';
const KIND: Record<CallOutcome, CallKind> = { reached: 'call-reached', notReached: 'call-not-reached' };

/** A call as the coach recorded it: kept (as a pending call) until the API has stored it. */
export interface Call {
  /** The event's id, chosen once: sending the same call again replaces it rather than counting it twice. */
  id: string;
  outcome: CallOutcome;
  /** When the call was recorded (the event's start). */
  at: string;
  /** Length in minutes of a reached call; null when none was given. */
  minutes: number | null;
}

/** A record id the app's own ids never collide with (letters, digits and -). */
export const callId = (now: Date) => `call-${now.getTime().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

export function recordCall(patientId: string, coachId: string, call: Call, note: string) {
  const reached = call.outcome === 'reached';
  return upsertSyncRecord(patientId, 'event', {
    id: call.id,
    data: {
      type: 'phone-coaching',
      kind: KIND[call.outcome],
      title: t(`dashboard.worklist.eventTitle.${call.outcome}`),
      start: call.at,
      durationMinutes: reached ? (call.minutes ?? 0) : 0,
      done: reached,
      coachId,
      templateId: null,
      notes: note.trim(),
    },
  });
}

/** Statuses of an API that has no DELETE for synchronised records. */
const NO_DELETE = new Set([404, 405, 501]);

/** Takes a recorded call back: deleted, or kept as withdrawn where the API cannot delete it. */
export async function undoCall(patientId: string, coachId: string, call: Call): Promise<void> {
  try {
    await deleteSyncRecord(patientId, 'event', call.id);
  } catch (error) {
    if (!(error instanceof ApiError && NO_DELETE.has(error.status))) throw error;
    await upsertSyncRecord(patientId, 'event', {
      id: call.id,
      data: {
        type: 'phone-coaching',
        kind: 'call-withdrawn',
        title: t('dashboard.worklist.eventTitle.withdrawn'),
        start: call.at,
        durationMinutes: 0,
        done: false,
        coachId,
        templateId: null,
        notes: '',
      },
    });
  }
}

/** Thrown when the API answered the PATCH but did not keep the day (an API whose patients have no such field). */
export class FollowUpNotKept extends Error {
  constructor() {
    super('The API did not keep the follow-up day');
    this.name = 'FollowUpNotKept';
  }
}

export async function setFollowUp(patientId: string, day: string | null): Promise<Patient> {
  const { data } = await updatePatient(patientId, { followUpAt: day });
  if ((data.followUpAt ?? null) !== day) throw new FollowUpNotKept();
  return data;
}

/** True while a follow-up day lies ahead: the patient is not in "Brauchen Aufmerksamkeit" until then. */
export function waitingForFollowUp(patient: Pick<Patient, 'followUpAt'>, now: Date): boolean {
  return !!patient.followUpAt && patient.followUpAt > isoDay(now);
}

/** The length field's text as minutes: null when empty, NaN when it is no length of 1 to 240 minutes. */
export function parseMinutes(text: string): number | null {
  if (text.trim() === '') return null;
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 && n <= 240 ? n : Number.NaN;
}

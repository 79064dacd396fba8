import { updatePatient } from '../../../api/patients.ts';
import type { Patient } from '../../../api/schemas/patients.ts';
import { upsertSyncRecord } from '../../../api/sync-db.ts';
import { isoDay } from '../../../components/AftercareBadge.tsx';
import { t } from '../../../lib/i18n.ts';

/*
 * The worklist's writes, both docs/product.md#calls calls a customer's API has too:
 *   - a call is an event of the patient (PUT /patients/{id}/sync-db/event) of type "phone-coaching", held by this
 *     coach now. "erreicht" is a held coaching (done: true, with its minutes): Controlling counts it. "nicht erreicht"
 *     is recorded for the patient too, as a call that did not take place (done: false, 0 minutes): it is no coaching,
 *     so Controlling does not count it;
 *   - a follow-up day (Wiedervorlage) is the patient field followUpAt (PATCH /patients/{id}): until that day the
 *     patient is left out of "Brauchen Aufmerksamkeit".
 */

export type CallOutcome = 'reached' | 'notReached';

export interface CallInput {
  patientId: string;
  coachId: string;
  outcome: CallOutcome;
  note: string;
  /** Length of a reached call; a call not reached has none. */
  minutes: number;
  now: Date;
}

/** A record id the app's own ids never collide with (letters, digits and -). */
const callId = (now: Date) => `call-${now.getTime().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

export async function recordCall(input: CallInput) {
  const reached = input.outcome === 'reached';
  return upsertSyncRecord(input.patientId, 'event', {
    id: callId(input.now),
    data: {
      type: 'phone-coaching',
      title: t(`dashboard.worklist.eventTitle.${input.outcome}`),
      start: input.now.toISOString(),
      durationMinutes: reached ? input.minutes : 0,
      done: reached,
      coachId: input.coachId,
      templateId: null,
      notes: input.note.trim(),
    },
  });
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

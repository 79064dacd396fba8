import type { Patient } from '../../../../contract/schemas/patients.ts';
import { listSyncRecords } from '../../../api/sync-db.ts';
import { addDays, dayIn } from './day.ts';
import { RECENT_DAYS, RULE_DAYS, moodWorsening, type Worsening } from './signals.ts';

/*
 * The day evaluations are read per patient (GET /patients/{id}/sync-db/day-evaluation, a docs/product.md#calls
 * call), so the check is bounded: after the dashboard has shown its figures, for at most CHECKED patients whose
 * app sent data within the last RECENT_DAYS days (only they can have a recent fall), newest data first,
 * PARALLEL at a time, each call asking for the RULE_DAYS days the rule reads. A patient's answer is kept in memory
 * for the signed-in coach until the app sends new data (lastDataAt changes) or the day changes, so coming back
 * to the dashboard from a patient costs no call.
 */

export const CHECKED = 12;
const PARALLEL = 4;
const DAY_MS = 86_400_000;

export interface WorseningCheck {
  flagged: Map<string, Worsening>;
  /** Patients checked, and those that could have been (more than CHECKED: the screen says so). */
  checked: number;
  candidates: number;
}

/** Patients whose ratings can show a recent fall, newest data first. */
export function worseningCandidates(patients: readonly Patient[], now: Date): Patient[] {
  const since = now.getTime() - RECENT_DAYS * DAY_MS;
  return patients
    .filter((p) => p.lastDataAt !== null && Date.parse(p.lastDataAt) >= since)
    .sort((a, b) => Date.parse(b.lastDataAt ?? '') - Date.parse(a.lastDataAt ?? ''));
}

const kept = new Map<string, { key: string; result: Worsening | null }>();
const keyOf = (coachId: string, patient: Patient, today: string) => `${coachId}|${patient.lastDataAt}|${today}`;

async function checkOne(patient: Patient, today: string, signal: AbortSignal, coachId: string): Promise<Worsening | null> {
  const key = keyOf(coachId, patient, today);
  const known = kept.get(patient.id);
  if (known?.key === key) return known.result;
  const result = await readAndRate(patient, today, signal);
  kept.set(patient.id, { key, result });
  return result;
}

async function readAndRate(patient: Patient, today: string, signal: AbortSignal): Promise<Worsening | null> {
  const from = addDays(today, -(RULE_DAYS - 1));
  const { data } = await listSyncRecords(patient.id, 'day-evaluation', { where: { date: { gte: from } }, order: 'date ASC', limit: RULE_DAYS * 2 }, signal);
  return moodWorsening(
    data.map((r) => ({ day: r.data.date, mood: r.data.mood })),
    today,
  );
}

/** Checks the candidates; a patient whose ratings could not be read is left unflagged (the others still count). */
export async function checkWorsening(
  patients: readonly Patient[],
  now: Date,
  signal: AbortSignal,
  coachId: string,
  timeZone?: string,
): Promise<WorseningCheck> {
  const today = dayIn(now, timeZone);
  const candidates = worseningCandidates(patients, now);
  const queue = candidates.slice(0, CHECKED);
  const flagged = new Map<string, Worsening>();
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const found = await checkOne(next, today, signal, coachId).catch((error: unknown) => {
        if (signal.aborted) throw error;
        return null;
      });
      if (found) flagged.set(next.id, found);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return { flagged, checked: Math.min(candidates.length, CHECKED), candidates: candidates.length };
}

/** Forgets every kept answer (tests). */
export const forgetWorseningChecks = () => kept.clear();

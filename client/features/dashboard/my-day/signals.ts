import type { ExternalComment } from '../../../../contract/schemas/external-comments.ts';
import { addDays } from './day.ts';

/*
 * The two signals that put a patient on "Brauchen Aufmerksamkeit" although the app still sends data:
 *
 * - a new note written in the app (an external comment from "patient-app") since the coach last opened the
 *   patient on this device (lib/last-opened.ts); for a patient never opened here, every note of the last
 *   NEW_NOTE_DAYS is new (the coach has not read it on this device; older ones would have been dealt with by now);
 * - a falling day evaluation: the mean mood (1 = very bad to 5 = very good) of the last RECENT_DAYS calendar days
 *   is at least DROP points below the mean of the BASELINE_DAYS days before. Days without a rating are left out
 *   of both means, so a skipped day neither raises nor hides a fall; but a mean needs at least MIN_RECENT and
 *   MIN_BASELINE ratings, so two bad days after a silent week flag nothing.
 */

export const NEW_NOTE_DAYS = 30;
export const RECENT_DAYS = 3;
export const BASELINE_DAYS = 7;
export const DROP = 1;
export const MIN_RECENT = 2;
export const MIN_BASELINE = 3;
/** Calendar days of ratings the rule reads, today included. */
export const RULE_DAYS = RECENT_DAYS + BASELINE_DAYS;

const DAY_MS = 86_400_000;

export interface NewNotes {
  count: number;
  newest: string;
}

/** New app notes per patient id: after the coach's last opening of the patient, or within NEW_NOTE_DAYS if never opened. */
export function newAppNotes(notes: readonly ExternalComment[], lastOpened: (patientId: string) => number | null, now: Date): Map<string, NewNotes> {
  const found = new Map<string, NewNotes>();
  const unopenedSince = now.getTime() - NEW_NOTE_DAYS * DAY_MS;
  for (const note of notes) {
    if (note.source !== 'patient-app') continue;
    const written = Date.parse(note.createdAt);
    if (Number.isNaN(written) || written <= (lastOpened(note.patientId) ?? unopenedSince)) continue;
    const seen = found.get(note.patientId);
    if (!seen) found.set(note.patientId, { count: 1, newest: note.createdAt });
    else found.set(note.patientId, { count: seen.count + 1, newest: written > Date.parse(seen.newest) ? note.createdAt : seen.newest });
  }
  return found;
}

export interface Rating {
  /** `YYYY-MM-DD` */
  day: string;
  mood: number;
}

export interface Worsening {
  recent: number;
  before: number;
}

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

/** The fall of the mean mood, or null when there is none (or too few ratings to tell). `today` is `YYYY-MM-DD`. */
export function moodWorsening(ratings: readonly Rating[], today: string): Worsening | null {
  // One rating per day: a day rated twice counts with its last rating, as the app shows it.
  const byDay = new Map<string, number>();
  for (const r of ratings) byDay.set(r.day, r.mood);
  const recentFrom = addDays(today, -(RECENT_DAYS - 1));
  const baselineFrom = addDays(recentFrom, -BASELINE_DAYS);
  const recent: number[] = [];
  const before: number[] = [];
  for (const [day, mood] of byDay) {
    if (day >= recentFrom && day <= today) recent.push(mood);
    else if (day >= baselineFrom && day < recentFrom) before.push(mood);
  }
  if (recent.length < MIN_RECENT || before.length < MIN_BASELINE) return null;
  const result = { recent: mean(recent), before: mean(before) };
  return result.before - result.recent >= DROP ? result : null;
}

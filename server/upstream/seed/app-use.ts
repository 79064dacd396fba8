import type { SyncCollection } from '../../../contract/schemas/sync-db.ts';
import { addDays, minDay } from '../lib/days.ts';
import { between, pick, type Random } from './random.ts';

/* The app use of one demo patient that seedAppData (app-data.ts) writes as sync records: the phone coachings and the
 * surveys. The random numbers are drawn in a fixed order: changing it changes the demo instance. */

/** Adds one sync record of the patient (and keeps its last-data time). */
export type AddRecord = (patientId: string, collection: SyncCollection, id: string, data: Record<string, unknown>, updatedAt: string) => void;

export const MOOD_NOTES = [
  '',
  '',
  '',
  '',
  'Spaziergang gemacht',
  'Viel Stress bei der Arbeit',
  'Gut geschlafen',
  'Rückenschmerzen am Abend',
  'Schöner Tag mit der Familie',
  'Müde',
];
export const LIFE_SECTIONS: [string, string][] = [
  ['Arbeit', 'Stufenweise zurück in den Beruf, Pausen einhalten'],
  ['Familie', 'Mehr gemeinsame Zeit am Wochenende'],
  ['Gesundheit', 'Dreimal pro Woche 30 Minuten Bewegung'],
  ['Freizeit', 'Wieder regelmäßig in den Chor gehen'],
];

export const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, Math.round(n)));
/** An evening timestamp (about 21:00 German time) on a day, the usual time patients fill in the app. */
export const evening = (day: string, random: Random) =>
  `${day}T${String(between(random, 18, 20)).padStart(2, '0')}:${String(between(random, 0, 59)).padStart(2, '0')}:00.000Z`;
/** Office hours on a weekday (German time is UTC+1/+2, so 06-14 UTC). */
const officeHour = (day: string, random: Random) =>
  `${day}T${String(between(random, 6, 14)).padStart(2, '0')}:${pick(random, ['00', '15', '30', '45'])}:00.000Z`;
const isWeekend = (day: string) => [0, 6].includes(new Date(`${day}T12:00:00Z`).getUTCDay());

/** Phone coachings over the whole aftercare so far: every one to two weeks on a working day, some not reached. */
export function addPhoneCoachings(add: AddRecord, patientId: string, coachId: string, start: string, end: string, today: string, random: Random): void {
  let n = 0;
  for (let day = addDays(start, between(random, 1, 5)); day <= minDay(end, addDays(today, -1)); day = addDays(day, between(random, 7, 14))) {
    const callDay = isWeekend(day) ? addDays(day, 2) : day;
    if (callDay >= today) break;
    const reached = random() < 0.88;
    add(
      patientId,
      'event',
      `call-${++n}`,
      {
        type: 'phone-coaching',
        // The kind lets the portal show the call in the coach's language; the title is for readers without kinds.
        kind: reached ? 'call-reached' : 'call-not-reached',
        title: reached ? 'Telefoncoaching' : 'Telefoncoaching (nicht erreicht)',
        start: officeHour(callDay, random),
        durationMinutes: reached ? pick(random, [15, 20, 25, 30, 30, 45, 50]) : 0,
        done: reached,
        coachId,
        templateId: null,
        notes: '',
      },
      `${callDay}T16:00:00.000Z`,
    );
  }
}

/** The weekly mood check every two weeks, the pain survey for orthopaedic patients, the closing satisfaction survey. */
export function addSurveys(
  add: AddRecord,
  patientId: string,
  { first, last, end, today, mood, orthopaedic }: { first: string; last: string; end: string; today: string; mood: number; orthopaedic: boolean },
  random: Random,
): void {
  let s = 0;
  for (let day = addDays(first, 3); day <= last; day = addDays(day, 14)) {
    s++;
    add(
      patientId,
      'survey',
      `sv-mood-${s}`,
      { surveyId: 'survey-mood', assignedAt: `${day}T08:00:00.000Z`, dueDate: addDays(day, 6), status: 'done' },
      `${day}T08:00:00.000Z`,
    );
    if (random() < 0.8) {
      const answerDay = addDays(day, between(random, 0, 3));
      if (answerDay > last) continue;
      add(
        patientId,
        'survey-result',
        `sr-mood-${s}`,
        {
          surveyId: 'survey-mood',
          completedAt: evening(answerDay, random),
          answers: [
            { questionId: 'mood', value: clamp(mood, 1, 5) },
            { questionId: 'sleep', value: between(random, 1, 5) },
            { questionId: 'drive', value: between(random, 1, 5) },
            { questionId: 'note', value: random() < 0.3 ? 'Es geht langsam aufwärts.' : '' },
          ],
        },
        evening(answerDay, random),
      );
    }
    if (orthopaedic && s % 2 === 0) {
      add(
        patientId,
        'survey-result',
        `sr-pain-${s}`,
        {
          surveyId: 'survey-pain',
          completedAt: evening(day, random),
          answers: [
            { questionId: 'pain', value: between(random, 1, 7) },
            { questionId: 'exercise', value: pick(random, ['1-2 Mal', '3-4 Mal', 'täglich']) },
          ],
        },
        evening(day, random),
      );
    }
  }
  if (end < today && random() < 0.7) {
    add(
      patientId,
      'survey-result',
      'sr-satisfaction',
      {
        surveyId: 'survey-satisfaction',
        completedAt: evening(end, random),
        answers: [
          { questionId: 'overall', value: between(random, 3, 5) },
          { questionId: 'recommend', value: pick(random, ['ja', 'ja', 'eher ja', 'eher nein']) },
          { questionId: 'wish', value: '' },
        ],
      },
      evening(end, random),
    );
  }
}

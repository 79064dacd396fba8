import type { Db } from '../db/index.ts';
import type { CoachTable, PatientTable } from '../db/types.ts';
import type { SyncRecordTable } from '../db/family-types.ts';
import { generateCode } from '../lib/codes.ts';
import { addDays, dayOf, maxDay, minDay } from '../lib/days.ts';
import { insertPuks } from '../features/access-codes/repository.ts';
import { insertEvaluationForms, insertLentDevices } from '../features/patients/repository.ts';
import { deviceIds } from '../features/reference-data/repository.ts';
import { insertRecords, type SyncState } from '../features/sync-data/repository.ts';
import { PATIENT_COLLECTIONS, toStoredRecord } from '../features/sync-data/rules.ts';
import type { Puk } from '../../../contract/schemas/puks.ts';
import { between, indexFn, pick, type Random } from './random.ts';
import { seedNews } from './news.ts';
import { addPhoneCoachings, addSurveys, clamp, evening, LIFE_SECTIONS, MOOD_NOTES, type AddRecord } from './app-use.ts';

/*
 * Demo data of the patients' app use: news with per-coach read state, 90 days of day-evaluations and day-stats for
 * most patients (with the gaps real app use has, so the dashboard's freshness colours all occur), phone-coaching
 * events over the whole aftercare, survey assignments and results, life sections, timeframes, app settings,
 * recovery keys, lent devices and closing assessments. Deterministic: everything comes from the seeded `random`,
 * drawn in a fixed order (changing the order changes the demo instance).
 */

export interface SeedAppDataContext {
  now: Date;
  random: Random;
  coaches: CoachTable[];
  patients: PatientTable[];
}

/** What the patients' app use adds up to, written at the end in bulk. */
interface Collected {
  records: SyncRecordTable[];
  puks: Puk[];
  lentDevices: { patientId: string; deviceId: string; createdAt: string }[];
  forms: object[];
  /** Newest app-written record per patient (its lastDataAt). */
  lastData: Map<string, string>;
  freeDevices: string[];
  add: AddRecord;
}

export async function seedAppData(db: Db, ctx: SeedAppDataContext): Promise<void> {
  const { now, random } = ctx;
  const today = dayOf(now);
  await seedNews(db, ctx.coaches, today, now.toISOString(), random);
  const collected: Collected = { records: [], puks: [], lentDevices: [], forms: [], lastData: new Map(), freeDevices: await deviceIds(db), add: () => {} };
  collected.add = (patientId, collection, id, data, updatedAt) => {
    collected.records.push(toStoredRecord(patientId, collection, id, data, updatedAt));
    if (PATIENT_COLLECTIONS.has(collection) && (collected.lastData.get(patientId) ?? '') < updatedAt) collected.lastData.set(patientId, updatedAt);
  };
  for (const p of ctx.patients) seedPatient(p, today, random, collected);
  await insertPuks(db, collected.puks);
  await insertLentDevices(db, collected.lentDevices);
  await insertEvaluationForms(db, collected.forms);
  await insertRecords(db, collected.records, syncStates(collected, ctx.patients));
}

/** The sync state the routes would have left after these records. */
function syncStates({ records, lastData }: Collected, patients: PatientTable[]): SyncState[] {
  const counts = new Map<string, number>();
  const lastEvaluation = new Map<string, string>();
  for (const r of records) {
    counts.set(r.patientId, (counts.get(r.patientId) ?? 0) + 1);
    if (r.collection === 'day-evaluation' && (lastEvaluation.get(r.patientId) ?? '') < (r.date ?? '')) lastEvaluation.set(r.patientId, r.date!);
  }
  const codes = new Map(patients.map((p) => [p.id, p.patientCode as string]));
  return [...lastData].map(([patientId, lastSyncAt]) => ({
    patientId,
    patientCode: codes.get(patientId) as string,
    lastSyncAt,
    recordCount: counts.get(patientId) ?? 0,
    lastDayEvaluationDate: lastEvaluation.get(patientId) ?? null,
  }));
}

/** One patient's calls, app use, keys and closing assessment. */
function seedPatient(p: PatientTable, today: string, random: Random, c: Collected): void {
  const start = p.aftercareStart as string;
  const end = p.aftercareEnd as string;
  if (start > today) return; // planned: nothing has happened yet
  const coachId = (p.primaryCoachId as string | null) ?? null;
  const diagnoses = JSON.parse(p.diagnosisIds as string) as string[];
  const orthopaedic = diagnoses.some((d) => d.startsWith('dx-M'));

  // Phone coachings over the whole aftercare so far: every one to two weeks, some not reached.
  if (coachId) addPhoneCoachings(c.add, p.id, coachId, start, end, today, random);

  // About one in twelve never opened the app; the others stopped at different points (dashboard colours).
  if (random() < 0.08) return;
  const gap = pick(random, [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 4, 5, 6, 9, 14, 35]);
  const adherence = 0.6 + random() * 0.38;
  // The last 90 days of app use: up to today (less the gap) while in aftercare, up to its end after.
  const last = minDay(end, addDays(today, -gap));
  const first = maxDay(start, addDays(last, -89));
  const mood = addDailyUse(p, { first, last, end, today, adherence, orthopaedic }, random, c);
  if (last < first) return;
  addSetup(p.id, start, today, random, c.add);

  // Weekly mood check every two weeks, answered on most occasions; the pain survey for orthopaedic patients.
  addSurveys(c.add, p.id, { first, last, end, today, mood, orthopaedic }, random);
  addPlans(p.id, { start, last, coachId }, random, c.add);
  addKeyAndAssessment(p.id, { start, end, today, coachId }, random, c);
}

/** Day-evaluations and day-stats from `first` to `last`, some days left out; returns the mood reached. */
function addDailyUse(
  p: PatientTable,
  { first, last, end, today, adherence, orthopaedic }: { first: string; last: string; end: string; today: string; adherence: number; orthopaedic: boolean },
  random: Random,
  c: Collected,
): number {
  let mood = between(random, 2, 4) + random();
  let steps = between(random, 3000, 9000);
  const hasTracker = c.freeDevices.length > 0 && random() < 0.4 && end >= today;
  if (hasTracker) c.lentDevices.push({ patientId: p.id, deviceId: c.freeDevices.shift()!, createdAt: `${p.aftercareStart}T09:00:00.000Z` });
  for (let day = first; day <= last; day = addDays(day, 1)) {
    // The last day of use always has an entry: it is what ended the streak.
    if (day !== last && random() > adherence) continue;
    mood = Math.max(1, Math.min(5, mood + (random() - 0.45) * 0.8));
    const evaluation = {
      date: day,
      mood: clamp(mood, 1, 5),
      sleep: clamp(mood + random() * 2 - 1, 1, 5),
      stress: clamp(6 - mood + random() * 2 - 1, 1, 5),
      pain: orthopaedic ? clamp(7 - mood + random() * 3, 0, 10) : null,
      notes: pick(random, MOOD_NOTES),
    };
    c.add(p.id, 'day-evaluation', `de-${day}`, evaluation, evening(day, random));
    steps = clamp(steps + (random() - 0.5) * 2500, 800, 18000);
    const stats = {
      date: day,
      steps,
      activeMinutes: clamp(steps / 160 + random() * 15, 0, 300),
      sleepMinutes: hasTracker ? between(random, 300, 500) : null,
      restingHeartRate: hasTracker ? between(random, 54, 82) : null,
    };
    c.add(p.id, 'day-stats', `ds-${day}`, stats, evening(day, random));
  }
  return mood;
}

/** The app's settings and state, and the life sections the patient set up. */
function addSetup(patientId: string, start: string, today: string, random: Random, add: AddRecord): void {
  const setupAt = `${maxDay(start, addDays(today, -120))}T10:00:00.000Z`;
  const settings = { reminderTime: pick(random, ['19:00', '20:00', '20:30', '21:00']), language: 'de', notificationsEnabled: true, shareDayStats: true };
  add(patientId, 'settings', 'app', settings, setupAt);
  add(patientId, 'internal', 'state', { onboardingDone: true, appVersion: '3.2.1' }, setupAt);
  LIFE_SECTIONS.slice(0, between(random, 2, 4)).forEach(([name, goal], i) => {
    add(patientId, 'life-section', `ls-${i + 1}`, { name, goal, priority: between(random, 2, 5), satisfaction: between(random, 1, 5) }, setupAt);
  });
}

/** A first goal period after discharge (looked back on when it is over), an emergency plan, a walking template. */
function addPlans(patientId: string, { start, last, coachId }: { start: string; last: string; coachId: string | null }, random: Random, add: AddRecord): void {
  if (random() < 0.45) {
    const tfEnd = addDays(start, 27);
    const timeframe = { title: 'Die ersten vier Wochen nach der Reha', start, end: tfEnd, goal: 'Tagesstruktur beibehalten, jeden Tag nach draußen' };
    add(patientId, 'timeframe', 'tf-1', timeframe, `${start}T10:00:00.000Z`);
    if (tfEnd <= last)
      add(patientId, 'timeframe-evaluation', 'tfe-1', { timeframeId: 'tf-1', date: tfEnd, rating: between(random, 2, 5), notes: '' }, evening(tfEnd, random));
  }
  if (random() < 0.3) {
    const fields = [
      { key: 'warning', label: 'Meine Warnsignale', value: 'Rückzug, schlechter Schlaf' },
      { key: 'help', label: 'Was mir hilft', value: 'Spazierengehen, mit meiner Schwester telefonieren' },
      { key: 'contact', label: 'Wen ich anrufe', value: 'Hausarztpraxis, Telefonseelsorge 0800 1110111' },
    ];
    add(patientId, 'form', 'notfallplan', { title: 'Mein Notfallplan', fields }, `${start}T11:00:00.000Z`);
  }
  if (coachId && random() < 0.5) {
    const template = { type: 'exercise', title: 'Spaziergang 30 Minuten', durationMinutes: 30, recurrence: 'daily', weekdays: [] };
    add(patientId, 'event-template', 'walk', template, `${start}T10:00:00.000Z`);
  }
}

/** A recovery key for some (used by a few who changed phones); a closing assessment for most whose aftercare is over. */
function addKeyAndAssessment(
  patientId: string,
  { start, end, today, coachId }: { start: string; end: string; today: string; coachId: string | null },
  random: Random,
  c: Collected,
): void {
  if (random() < 0.3) {
    const created = `${addDays(start, 2)}T09:00:00.000Z`;
    c.puks.push({
      id: `puk-${patientId}`,
      patientId,
      code: generateCode(indexFn(random)),
      createdAt: created,
      usedAt: random() < 0.3 ? `${addDays(start, between(random, 10, 40))}T18:00:00.000Z` : null,
    });
  }
  if (end < today && random() < 0.7) {
    c.forms.push({
      patientId,
      goalAttainment: between(random, 2, 5),
      workAbility: pick(random, ['able', 'able', 'limited', 'unable', 'not-applicable']),
      returnToWorkDate: random() < 0.5 ? addDays(end, between(random, -30, 30)) : null,
      followUpRecommended: random() < 0.4 ? 1 : 0,
      summary: pick(random, [
        'Ziele überwiegend erreicht, stabile Stimmung.',
        'Wiedereingliederung abgeschlossen.',
        'Ambulante Psychotherapie empfohlen.',
        'Bewegungsziele erreicht, Schmerzen rückläufig.',
      ]),
      updatedBy: coachId,
      updatedAt: `${end}T15:00:00.000Z`,
    });
  }
}

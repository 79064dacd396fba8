import type { Db } from '../db/index.ts';
import type { CoachTable, PatientTable } from '../db/types.ts';
import type { SyncRecordTable } from '../db/family-types.ts';
import { generateCode } from '../lib/codes.ts';
import { addDays, dayOf, maxDay, minDay } from '../lib/days.ts';
import { derivedColumns, PATIENT_COLLECTIONS } from '../features/sync-data/routes.ts';
import type { SyncCollection } from '../../../contract/schemas/sync-db.ts';
import { between, indexFn, pick, type Random } from './random.ts';
import { insertChunked } from './insert.ts';
import { seedNews } from './news.ts';
import { addPhoneCoachings, addSurveys, clamp, evening, LIFE_SECTIONS, MOOD_NOTES } from './app-use.ts';

/*
 * Demo data of the news, patient-extras and sync-db families: news with per-coach read state, 90 days
 * of day-evaluations and day-stats for most patients (with the gaps real app use has, so the
 * dashboard's freshness colours all occur), phone-coaching events over the whole aftercare, survey
 * assignments and results, life sections, timeframes, app settings, recovery keys, lent devices and
 * closing assessments. Deterministic: everything comes from the seeded `random`.
 */

export interface SeedAppDataContext {
  now: Date;
  random: Random;
  coaches: CoachTable[];
  patients: PatientTable[];
}

export async function seedAppData(db: Db, ctx: SeedAppDataContext): Promise<void> {
  const { now, random } = ctx;
  const at = now.toISOString();
  const today = dayOf(now);

  await seedNews(db, ctx.coaches, today, at, random);

  const devices = (await db.selectFrom('devices').select('id').orderBy('id').execute()).map((d) => d.id);
  const freeDevices = [...devices];
  const records: SyncRecordTable[] = [];
  const puks: object[] = [];
  const patientDevices: object[] = [];
  const forms: object[] = [];
  const lastData = new Map<string, string>();

  const add = (patientId: string, collection: SyncCollection, id: string, data: Record<string, unknown>, updatedAt: string) => {
    records.push({ patientId, collection, id, ...derivedColumns(collection, data), data: JSON.stringify(data), updatedAt });
    if (PATIENT_COLLECTIONS.has(collection) && (lastData.get(patientId) ?? '') < updatedAt) lastData.set(patientId, updatedAt);
  };

  for (const p of ctx.patients) {
    const start = p.aftercareStart as string;
    const end = p.aftercareEnd as string;
    if (start > today) continue; // planned: nothing has happened yet
    const coachId = (p.primaryCoachId as string | null) ?? null;
    const diagnoses = JSON.parse(p.diagnosisIds as string) as string[];
    const orthopaedic = diagnoses.some((d) => d.startsWith('dx-M'));

    // Phone coachings over the whole aftercare so far: every one to two weeks, some not reached.
    if (coachId) addPhoneCoachings(add, p.id, coachId, start, end, today, random);

    // About one in twelve never opened the app; the others stopped at different points (dashboard colours).
    if (random() < 0.08) continue;
    const gap = pick(random, [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 4, 5, 6, 9, 14, 35]);
    const adherence = 0.6 + random() * 0.38;
    // The last 90 days of app use: up to today (less the gap) while in aftercare, up to its end after.
    const last = minDay(end, addDays(today, -gap));
    const first = maxDay(start, addDays(last, -89));
    let mood = between(random, 2, 4) + random();
    let steps = between(random, 3000, 9000);
    const hasTracker = freeDevices.length > 0 && random() < 0.4 && end >= today;
    if (hasTracker) patientDevices.push({ patientId: p.id, deviceId: freeDevices.shift(), createdAt: `${start}T09:00:00.000Z` });

    for (let day = first; day <= last; day = addDays(day, 1)) {
      // The last day of use always has an entry: it is what ended the streak.
      if (day !== last && random() > adherence) continue;
      mood = Math.max(1, Math.min(5, mood + (random() - 0.45) * 0.8));
      add(
        p.id,
        'day-evaluation',
        `de-${day}`,
        {
          date: day,
          mood: clamp(mood, 1, 5),
          sleep: clamp(mood + random() * 2 - 1, 1, 5),
          stress: clamp(6 - mood + random() * 2 - 1, 1, 5),
          pain: orthopaedic ? clamp(7 - mood + random() * 3, 0, 10) : null,
          notes: pick(random, MOOD_NOTES),
        },
        evening(day, random),
      );
      steps = clamp(steps + (random() - 0.5) * 2500, 800, 18000);
      add(
        p.id,
        'day-stats',
        `ds-${day}`,
        {
          date: day,
          steps,
          activeMinutes: clamp(steps / 160 + random() * 15, 0, 300),
          sleepMinutes: hasTracker ? between(random, 300, 500) : null,
          restingHeartRate: hasTracker ? between(random, 54, 82) : null,
        },
        evening(day, random),
      );
    }
    if (last < first) continue;
    const setupAt = `${maxDay(start, addDays(today, -120))}T10:00:00.000Z`;
    add(
      p.id,
      'settings',
      'app',
      { reminderTime: pick(random, ['19:00', '20:00', '20:30', '21:00']), language: 'de', notificationsEnabled: true, shareDayStats: true },
      setupAt,
    );
    add(p.id, 'internal', 'state', { onboardingDone: true, appVersion: '3.2.1' }, setupAt);
    LIFE_SECTIONS.slice(0, between(random, 2, 4)).forEach(([name, goal], i) => {
      add(p.id, 'life-section', `ls-${i + 1}`, { name, goal, priority: between(random, 2, 5), satisfaction: between(random, 1, 5) }, setupAt);
    });

    // Weekly mood check every two weeks, answered on most occasions; the pain survey for orthopaedic patients.
    addSurveys(add, p.id, { first, last, end, today, mood, orthopaedic }, random);

    // A first goal period after discharge, looked back on when it is over.
    if (random() < 0.45) {
      const tfEnd = addDays(start, 27);
      add(
        p.id,
        'timeframe',
        'tf-1',
        { title: 'Die ersten vier Wochen nach der Reha', start, end: tfEnd, goal: 'Tagesstruktur beibehalten, jeden Tag nach draußen' },
        `${start}T10:00:00.000Z`,
      );
      if (tfEnd <= last)
        add(p.id, 'timeframe-evaluation', 'tfe-1', { timeframeId: 'tf-1', date: tfEnd, rating: between(random, 2, 5), notes: '' }, evening(tfEnd, random));
    }
    if (random() < 0.3) {
      add(
        p.id,
        'form',
        'notfallplan',
        {
          title: 'Mein Notfallplan',
          fields: [
            { key: 'warning', label: 'Meine Warnsignale', value: 'Rückzug, schlechter Schlaf' },
            { key: 'help', label: 'Was mir hilft', value: 'Spazierengehen, mit meiner Schwester telefonieren' },
            { key: 'contact', label: 'Wen ich anrufe', value: 'Hausarztpraxis, Telefonseelsorge 0800 1110111' },
          ],
        },
        `${start}T11:00:00.000Z`,
      );
    }
    if (coachId && random() < 0.5) {
      add(
        p.id,
        'event-template',
        'walk',
        { type: 'exercise', title: 'Spaziergang 30 Minuten', durationMinutes: 30, recurrence: 'daily', weekdays: [] },
        `${start}T10:00:00.000Z`,
      );
    }

    // A recovery key for some, used by a few who changed phones.
    if (random() < 0.3) {
      const created = `${addDays(start, 2)}T09:00:00.000Z`;
      puks.push({
        id: `puk-${p.id}`,
        patientId: p.id,
        code: generateCode(indexFn(random)),
        createdAt: created,
        usedAt: random() < 0.3 ? `${addDays(start, between(random, 10, 40))}T18:00:00.000Z` : null,
      });
    }
    // Closing assessment for most patients whose aftercare is over.
    if (end < today && random() < 0.7) {
      forms.push({
        patientId: p.id,
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

  await insertChunked(db, 'sync_records', records);
  await insertChunked(db, 'puks', puks);
  await insertChunked(db, 'patient_devices', patientDevices);
  await insertChunked(db, 'evaluation_forms', forms);

  // Sync state as the routes would have left it.
  const counts = new Map<string, number>();
  const lastEvaluation = new Map<string, string>();
  for (const r of records) {
    counts.set(r.patientId, (counts.get(r.patientId) ?? 0) + 1);
    if (r.collection === 'day-evaluation' && (lastEvaluation.get(r.patientId) ?? '') < (r.date ?? '')) lastEvaluation.set(r.patientId, r.date!);
  }
  const codes = new Map(ctx.patients.map((p) => [p.id, p.patientCode as string]));
  const synced = [...lastData].map(([patientId, lastSyncAt]) => ({
    id: patientId,
    patientId,
    patientCode: codes.get(patientId),
    lastSyncAt,
    recordCount: counts.get(patientId) ?? 0,
    lastDayEvaluationDate: lastEvaluation.get(patientId) ?? null,
  }));
  await insertChunked(db, 'synced_patients', synced);
  for (const [patientId, lastDataAt] of lastData) {
    await db.updateTable('patients').set({ lastDataAt }).where('id', '=', patientId).execute();
  }
}

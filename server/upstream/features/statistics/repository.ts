import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/index.ts';
import { readSetting } from '../settings/repository.ts';
import { statusOn, type Period } from './rules.ts';
import { addDays, dayOf, daysInclusive, eachDay, maxDay, minDay } from '../../lib/days.ts';
import type { DailyPatients, PatientStatistics, PhoneCoachings } from '../../../../contract/schemas/statistics.ts';

/* The figures of Controlling for a period: patients by aftercare status, the daily count of patients in aftercare,
 * phone coachings per day, and what the per-patient table (rules.ts) is computed from. */

/** Patients in scope: all, or those whose primary coach is coachId. */
function patientsQuery(db: Db, coachId: string | undefined) {
  let query = db.selectFrom('patients');
  if (coachId) query = query.where('primaryCoachId' as 'id', '=', coachId);
  return query;
}

export async function patientStatistics(db: Db, p: Period): Promise<PatientStatistics> {
  const rows = await patientsQuery(db, p.coachId).select(['aftercareStart', 'aftercareEnd', 'lastDataAt']).execute();
  const stats: PatientStatistics = {
    from: p.from,
    to: p.to,
    total: 0,
    planned: 0,
    active: 0,
    completed: 0,
    startedInPeriod: 0,
    endedInPeriod: 0,
    activeWithoutDataFor7Days: 0,
  };
  const staleBefore = addDays(p.to, -7);
  for (const row of rows) {
    const start = row.aftercareStart as string;
    const end = row.aftercareEnd as string;
    const status = statusOn(p.to, start, end);
    stats.total++;
    stats[status]++;
    if (start >= p.from && start <= p.to) stats.startedInPeriod++;
    if (end >= p.from && end <= p.to) stats.endedInPeriod++;
    const last = row.lastDataAt as string | null;
    if (status === 'active' && (!last || dayOf(last) < staleBefore)) stats.activeWithoutDataFor7Days++;
  }
  return stats;
}

export async function dailyPatientsInAftercare(db: Db, p: Period): Promise<DailyPatients> {
  const rows = await patientsQuery(db, p.coachId)
    .select(['aftercareStart', 'aftercareEnd'])
    .where('aftercareStart', '<=', p.to)
    .where('aftercareEnd', '>=', p.from)
    .execute();
  const days = eachDay(p.from, p.to);
  // Difference array: +1 on the first day in the period, -1 after the last.
  const delta = new Array<number>(days.length + 1).fill(0);
  for (const row of rows) {
    const first = maxDay(row.aftercareStart as string, p.from);
    const last = minDay(row.aftercareEnd as string, p.to);
    delta[daysInclusive(p.from, first) - 1]++;
    delta[daysInclusive(p.from, last)]--;
  }
  let running = 0;
  return days.map((date, i) => {
    running += delta[i];
    return { date, count: running };
  });
}

/** Phone coachings: held (done) events of type phone-coaching, by the Berlin day of their start. */
function phoneCoachingQuery(db: Db, p: Period) {
  let query = db
    .selectFrom('sync_records')
    .where('collection', '=', 'event')
    .where('type', '=', 'phone-coaching')
    .where('done', '=', 1)
    .where('date', '>=', p.from)
    .where('date', '<=', p.to);
  if (p.coachId) {
    const coachId = p.coachId;
    query = query.where('patientId', 'in', (eb) =>
      eb
        .selectFrom('patients')
        .select('id')
        .where('primaryCoachId' as 'id', '=', coachId),
    );
  }
  return query;
}

export async function phoneCoachings(db: Db, p: Period): Promise<PhoneCoachings> {
  const rows = await phoneCoachingQuery(db, p)
    .select((eb) => ['date', eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('minutes').as('minutes')])
    .groupBy('date')
    .execute();
  const byDay = new Map(rows.map((r) => [r.date as string, r]));
  return eachDay(p.from, p.to).map((date) => {
    const row = byDay.get(date);
    return { date, count: Number(row?.count ?? 0), minutes: Number(row?.minutes ?? 0) };
  });
}

/** Per patient whose aftercare overlaps the period: who they are, their coach, and what happened in the period. */
export async function detailRowsData(db: Db, p: Period) {
  const patients = await patientsQuery(db, p.coachId)
    .leftJoin('coaches', 'coaches.id', 'patients.primaryCoachId' as 'patients.id')
    .select([
      'patients.id',
      'patients.patientCode',
      'patients.firstName',
      'patients.lastName',
      'patients.primaryCoachId',
      'patients.aftercareStart',
      'patients.aftercareEnd',
      'patients.lastDataAt',
      'coaches.firstName as coachFirst',
      'coaches.lastName as coachLast',
    ])
    .where('patients.aftercareStart', '<=', p.to)
    .where('patients.aftercareEnd', '>=', p.from)
    .execute();
  const calls = await phoneCoachingQuery(db, p)
    .select((eb) => ['patientId', eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('minutes').as('minutes')])
    .groupBy('patientId')
    .execute();
  const evaluations = await db
    .selectFrom('sync_records')
    .select((eb) => ['patientId', eb.fn.countAll<number>().as('count')])
    .where('collection', '=', 'day-evaluation')
    .where('date', '>=', p.from)
    .where('date', '<=', p.to)
    .groupBy('patientId')
    .execute();
  return {
    patients,
    callsBy: new Map(calls.map((c) => [c.patientId, { count: Number(c.count ?? 0), minutes: Number(c.minutes ?? 0) }])),
    evaluationsBy: new Map(evaluations.map((e) => [e.patientId, Number(e.count)])),
  };
}

const PSEUDONYM_SETTING = 'statistics_pseudonym_key';
/**
 * The instance's secret for statistics pseudonyms (random, made on first use, never answered by any call):
 * a pseudonym stays the same across periods and pages, and cannot be turned back into a patient id.
 */
export async function pseudonymKey(db: Db): Promise<string> {
  const stored = await readSetting<string | null>(db, PSEUDONYM_SETTING, null);
  if (typeof stored === 'string' && stored) return stored;
  await db
    .insertInto('settings')
    .values({ key: PSEUDONYM_SETTING, value: JSON.stringify(randomBytes(32).toString('hex')) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return readSetting<string>(db, PSEUDONYM_SETTING, '');
}

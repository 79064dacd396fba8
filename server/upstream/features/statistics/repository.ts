import type { Db } from '../../db/index.ts';
import type { Period } from './rules.ts';
import { eachDay } from '../../lib/days.ts';
import { activeWithRecentData, dayCountsFor, statusCounts } from './day-counts.ts';
import type { DailyPatients, PatientStatistics, PhoneCoachings } from '../../../../contract/schemas/statistics.ts';

/* The figures of Controlling for a period: patients by aftercare status, the daily count of patients in aftercare,
 * phone coachings per day, and what the per-patient table (rules.ts) is computed from. */

export async function patientStatistics(db: Db, p: Period): Promise<PatientStatistics> {
  const counts = await statusCounts(db, p);
  const active = counts.total - counts.planned - counts.completed;
  return {
    from: p.from,
    to: p.to,
    total: counts.total,
    planned: counts.planned,
    active,
    completed: counts.completed,
    startedInPeriod: counts.startedInPeriod,
    endedInPeriod: counts.endedInPeriod,
    activeWithoutDataFor7Days: active - (await activeWithRecentData(db, p)),
  };
}

export async function dailyPatientsInAftercare(db: Db, p: Period): Promise<DailyPatients> {
  // In aftercare on day d: started on or before d, less those ended before d.
  const counts = await dayCountsFor(db, p);
  let started = counts.startedBefore;
  let ended = counts.endedBefore;
  return eachDay(p.from, p.to).map((date) => {
    const today = counts.byDay.get(date);
    started += today?.starts ?? 0;
    const count = started - ended;
    ended += today?.ends ?? 0;
    return { date, count };
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

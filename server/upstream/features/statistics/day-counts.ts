import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { Period } from './rules.ts';

/*
 * Counts read from aftercare_day_counts and recent_data_day_counts (migrations 120 and 122: per day, the intervals
 * starting and ending on it, kept by triggers), so they cost the number of days with a start or end, not the number
 * of patients.
 */

const scopeOf = (p: Period) => (p.coachId ? `coach:${p.coachId}` : '*');

const asNumber = (value: unknown) => Number(value ?? 0);

export interface StatusCounts {
  total: number;
  planned: number;
  completed: number;
  startedInPeriod: number;
  endedInPeriod: number;
}

/** Patients in scope, planned (start after `to`), completed (end before `to`), and the flows within the period. */
export async function statusCounts(db: Db, p: Period): Promise<StatusCounts> {
  const within = sql`day >= ${p.from} and day <= ${p.to}`;
  const row = await db
    .selectFrom('aftercare_day_counts')
    .select([
      sql<number>`sum(starts)`.as('total'),
      sql<number>`sum(case when day > ${p.to} then starts else 0 end)`.as('planned'),
      sql<number>`sum(case when day < ${p.to} then ends else 0 end)`.as('completed'),
      sql<number>`sum(case when ${within} then starts else 0 end)`.as('startedInPeriod'),
      sql<number>`sum(case when ${within} then ends else 0 end)`.as('endedInPeriod'),
    ])
    .where('scope', '=', scopeOf(p))
    .executeTakeFirst();
  return {
    total: asNumber(row?.total),
    planned: asNumber(row?.planned),
    completed: asNumber(row?.completed),
    startedInPeriod: asNumber(row?.startedInPeriod),
    endedInPeriod: asNumber(row?.endedInPeriod),
  };
}

/** Patients whose interval overlaps the period: started by `to`, less those ended before `from`. */
export async function overlappingCount(db: Db, p: Period): Promise<number> {
  return intervalsOverlapping(db, 'aftercare_day_counts', p);
}

/**
 * Patients active on `to` whose last data is from the 7 days before it or later: intervals of
 * recent_data_day_counts (migration 122) that contain `to`.
 */
export async function activeWithRecentData(db: Db, p: Period): Promise<number> {
  return intervalsOverlapping(db, 'recent_data_day_counts', { ...p, from: p.to });
}

async function intervalsOverlapping(db: Db, table: 'aftercare_day_counts' | 'recent_data_day_counts', p: Period): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select([
      sql<number>`sum(case when day <= ${p.to} then starts else 0 end)`.as('started'),
      sql<number>`sum(case when day < ${p.from} then ends else 0 end)`.as('ended'),
    ])
    .where('scope', '=', scopeOf(p))
    .where('day', '<=', p.to)
    .executeTakeFirst();
  return asNumber(row?.started) - asNumber(row?.ended);
}

/** Intervals started and ended before `from`, and the days within the period that have a start or an end. */
export async function dayCountsFor(db: Db, p: Period) {
  const before = await db
    .selectFrom('aftercare_day_counts')
    .select([sql<number>`sum(starts)`.as('starts'), sql<number>`sum(ends)`.as('ends')])
    .where('scope', '=', scopeOf(p))
    .where('day', '<', p.from)
    .executeTakeFirst();
  const days = await db
    .selectFrom('aftercare_day_counts')
    .select(['day', 'starts', 'ends'])
    .where('scope', '=', scopeOf(p))
    .where('day', '>=', p.from)
    .where('day', '<=', p.to)
    .execute();
  return {
    startedBefore: asNumber(before?.starts),
    endedBefore: asNumber(before?.ends),
    byDay: new Map(days.map((d) => [d.day, { starts: asNumber(d.starts), ends: asNumber(d.ends) }])),
  };
}

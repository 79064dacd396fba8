import type { ListFilter } from '../../api/schemas/common.ts';
import { ENDING_SOON_DAYS, isoDay } from '../../components/AftercareBadge.tsx';

const DAY = 86_400_000;
const ago = (now: Date, days: number) => new Date(now.getTime() - days * DAY).toISOString();

/** Patients in aftercare today (the caseload). */
export function activeWhere(now: Date): Record<string, unknown> {
  const today = isoDay(now);
  return { aftercareStart: { lte: today }, aftercareEnd: { gte: today } };
}

/** Caseload counts per traffic-light level, each counted with countRows (client/api/paging.ts). */
export function levelWhere(level: 'green' | 'yellow' | 'red' | 'grey', now: Date): Record<string, unknown> {
  if (level === 'green') return { lastDataAt: { gte: ago(now, 2) } };
  if (level === 'yellow') return { lastDataAt: { lt: ago(now, 2), gte: ago(now, 7) } };
  if (level === 'red') return { lastDataAt: { lt: ago(now, 7), gte: ago(now, 30) } };
  return { or: [{ lastDataAt: null }, { lastDataAt: { lt: ago(now, 30) } }] };
}

/** Active patients without data for more than 2 days, longest silence first. */
export function attentionFilter(now: Date, limit = 100): ListFilter {
  return {
    where: { and: [activeWhere(now), { or: [{ lastDataAt: null }, { lastDataAt: { lt: ago(now, 2) } }] }] },
    order: ['lastDataAt ASC', 'lastName ASC'],
    limit,
  };
}

/** Active patients whose aftercare ends within the next two weeks, soonest first. */
export function endingSoonFilter(now: Date, limit = 10): ListFilter {
  const today = isoDay(now);
  const until = isoDay(new Date(now.getTime() + ENDING_SOON_DAYS * DAY));
  return {
    where: { aftercareStart: { lte: today }, aftercareEnd: { between: [today, until] } },
    order: ['aftercareEnd ASC', 'lastName ASC'],
    limit,
  };
}

import type { ListFilter } from '../../../contract/schemas/common.ts';
import { ENDING_SOON_DAYS, isoDay } from '../../components/AftercareBadge.tsx';

const DAY = 86_400_000;

/** Rows the dashboard shows in "Brauchen Aufmerksamkeit" and "Nachsorge endet bald". */
export const ATTENTION_SHOWN = 8;
export const ENDING_SHOWN = 10;
/** Active patients read in one call; a larger caseload is counted call by call (dashboard/load.ts). */
export const CASELOAD_PAGE = 200;
const ago = (now: Date, days: number) => new Date(now.getTime() - days * DAY).toISOString();

/** Patients in aftercare today (the caseload). */
export function activeWhere(now: Date): Record<string, unknown> {
  const today = isoDay(now);
  return { aftercareStart: { lte: today }, aftercareEnd: { gte: today } };
}

/** Every patient in aftercare today, longest silence first (one page; see CASELOAD_PAGE). */
export function caseloadFilter(now: Date): ListFilter {
  return { where: activeWhere(now), order: ['lastDataAt ASC', 'lastName ASC', 'id ASC'], limit: CASELOAD_PAGE };
}

/** True for an active patient whose aftercare ends within ENDING_SOON_DAYS (the same days as endingSoonFilter). */
export function endsSoon(patient: { aftercareEnd: string }, now: Date): boolean {
  const until = isoDay(new Date(now.getTime() + ENDING_SOON_DAYS * DAY));
  return patient.aftercareEnd >= isoDay(now) && patient.aftercareEnd <= until;
}

/** Caseload counts per traffic-light level, for a caseload over one page: each counted with countRows (client/data/paging.ts). */
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
  return { where: { aftercareStart: { lte: today }, aftercareEnd: { between: [today, until] } }, order: ['aftercareEnd ASC', 'lastName ASC'], limit };
}

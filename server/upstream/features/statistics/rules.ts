import { createHmac } from 'node:crypto';
import { badRequest } from '../../http/errors.ts';
import { addDays, dayOf, daysInclusive, maxDay, minDay } from '../../lib/days.ts';
import { compareNames } from '../../lib/sort-key.ts';
import type { AftercareStatus, PatientDetailStatisticsRow } from '../../../../contract/schemas/statistics.ts';
import { PatientDetailStatisticsRowSchema } from '../../../../contract/schemas/statistics.ts';
import type { detailRowsData } from './repository.ts';

/** A period of days, optionally for one coach's patients. */
export interface Period {
  from: string;
  to: string;
  coachId: string | undefined;
}

/** Two years and a day: a longer period is no Controlling question, and its daily series would be huge. */
const MAX_PERIOD_DAYS = 731;

/** The asked period; without one, the 90 days up to today (Berlin time). */
export function periodOf(q: { from?: string; to?: string; coachId?: string }, now: Date): Period {
  const to = q.to ?? dayOf(now);
  const from = q.from ?? addDays(to, -89);
  if (daysInclusive(from, to) > MAX_PERIOD_DAYS)
    throw badRequest(`The period may be at most ${MAX_PERIOD_DAYS} days`, [{ path: 'from', message: 'Period too long' }], 'INVALID_QUERY');
  return { from, to, coachId: q.coachId };
}

export function statusOn(day: string, start: string, end: string): AftercareStatus {
  return day < start ? 'planned' : day > end ? 'completed' : 'active';
}

type Row = PatientDetailStatisticsRow;
const ROW_FIELDS = Object.keys(PatientDetailStatisticsRowSchema.entries);

/** The `order` of the detail table ("lastName ASC"): a field of its rows and a direction, else 400. */
function detailOrder(order: string | undefined): { field: keyof Row; sign: 1 | -1 } {
  const match = /^\s*([A-Za-z]+)(?:\s+(ASC|DESC))?\s*$/i.exec(order ?? 'lastName ASC');
  if (!match || !ROW_FIELDS.includes(match[1]))
    throw badRequest('Invalid order', [{ path: 'order', message: `Unknown field or direction: ${order}` }], 'INVALID_QUERY');
  return { field: match[1] as keyof Row, sign: match[2]?.toUpperCase() === 'DESC' ? -1 : 1 };
}

/**
 * Text in German phone-book order, as the lists sort names (lib/sort-key.ts); a name sorted by last name is then
 * sorted by first name ("Bauer, Matthias" before "Bauer, Nicole"), and the pseudonym decides the rest.
 */
function sortRows(rows: Row[], field: keyof Row, sign: 1 | -1): void {
  const compare = (key: keyof Row, a: Row, b: Row) => {
    const x = a[key];
    const y = b[key];
    if (x === null || y === null) return x === y ? 0 : x === null ? -1 : 1;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return compareNames(String(x), String(y));
  };
  const then: (keyof Row)[] = field === 'lastName' ? ['firstName'] : field === 'firstName' ? ['lastName'] : [];
  rows.sort((a, b) => {
    for (const key of [field, ...then]) {
      const c = compare(key, a, b);
      if (c) return sign * c;
    }
    return a.rowId < b.rowId ? -1 : a.rowId > b.rowId ? 1 : 0;
  });
}

/**
 * One row per patient whose aftercare overlaps the period, sorted and paged; total = all rows. Names, codes and ids
 * open a patient: only rows of patients the caller may see (`visible`, null: all) carry them. The others are counted
 * under a pseudonym (an HMAC with the instance's `key`) that no other call accepts.
 */
export function detailRows(
  data: Awaited<ReturnType<typeof detailRowsData>>,
  p: Period,
  visible: Set<string> | null,
  key: string,
  page: { order?: string; limit?: number; skip?: number },
): { rows: Row[]; total: number } {
  const { field, sign } = detailOrder(page.order);
  const rows: Row[] = data.patients.map((r) => {
    const start = r.aftercareStart as string;
    const end = r.aftercareEnd as string;
    const call = data.callsBy.get(r.id);
    const shown = visible === null || visible.has(r.id);
    return {
      rowId: `pseudo-${createHmac('sha256', key).update(r.id).digest('hex').slice(0, 16)}`,
      patientId: shown ? r.id : null,
      patientCode: shown ? (r.patientCode as string) : null,
      firstName: shown ? (r.firstName as string) : null,
      lastName: shown ? (r.lastName as string) : null,
      primaryCoachId: (r.primaryCoachId as string | null) ?? null,
      primaryCoachName: r.coachFirst ? `${r.coachFirst} ${r.coachLast}` : '',
      aftercareStart: start,
      aftercareEnd: end,
      status: statusOn(p.to, start, end),
      daysInAftercare: daysInclusive(maxDay(start, p.from), minDay(end, p.to)),
      phoneCoachings: call?.count ?? 0,
      phoneCoachingMinutes: call?.minutes ?? 0,
      dayEvaluations: data.evaluationsBy.get(r.id) ?? 0,
      lastDataAt: (r.lastDataAt as string | null) ?? null,
    };
  });
  sortRows(rows, field, sign);
  const skip = page.skip ?? 0;
  return { rows: rows.slice(skip, page.limit === undefined ? undefined : skip + page.limit), total: rows.length };
}

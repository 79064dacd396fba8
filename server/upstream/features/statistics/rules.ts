import { badRequest } from '../../http/errors.ts';
import { addDays, dayOf, daysInclusive, maxDay, minDay } from '../../lib/days.ts';
import type { AftercareStatus, PatientDetailStatisticsRow } from '../../../../contract/schemas/statistics.ts';
import { PatientDetailStatisticsRowSchema } from '../../../../contract/schemas/statistics.ts';
import type { DetailPatient, Direction } from './detail.ts';

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
export function detailOrder(order: string | undefined): { field: keyof Row; direction: Direction } {
  const match = /^\s*([A-Za-z]+)(?:\s+(ASC|DESC))?\s*$/i.exec(order ?? 'lastName ASC');
  if (!match || !ROW_FIELDS.includes(match[1]))
    throw badRequest('Invalid order', [{ path: 'order', message: `Unknown field or direction: ${order}` }], 'INVALID_QUERY');
  return { field: match[1] as keyof Row, direction: match[2]?.toUpperCase() === 'DESC' ? 'desc' : 'asc' };
}

/**
 * A row of the detail table. Names, codes and ids open a patient: only rows of patients the caller may see carry
 * them; the others are counted under their pseudonym (`rowId`), which no other call accepts.
 */
export function detailRow(patient: DetailPatient, p: Period): Row {
  const start = patient.aftercareStart;
  const end = patient.aftercareEnd;
  const shown = Number(patient.visible) === 1;
  return {
    rowId: patient.statisticsRowId,
    patientId: shown ? patient.id : null,
    patientCode: shown ? patient.patientCode : null,
    firstName: shown ? patient.firstName : null,
    lastName: shown ? patient.lastName : null,
    primaryCoachId: patient.primaryCoachId ?? null,
    primaryCoachName: patient.coachFirst ? `${patient.coachFirst} ${patient.coachLast}` : '',
    aftercareStart: start,
    aftercareEnd: end,
    status: statusOn(p.to, start, end),
    daysInAftercare: daysInclusive(maxDay(start, p.from), minDay(end, p.to)),
    phoneCoachings: Number(patient.phoneCoachings),
    phoneCoachingMinutes: Number(patient.phoneCoachingMinutes),
    dayEvaluations: Number(patient.dayEvaluations),
    lastDataAt: patient.lastDataAt ?? null,
  };
}

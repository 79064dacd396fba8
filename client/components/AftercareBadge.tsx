import { aftercareStatus } from '../api/patients.ts';
import type { Patient } from '../../contract/schemas/patients.ts';
import { formatDate, t } from '../lib/i18n.ts';
import { daysUntil } from '../domain/freshness.ts';

export const ENDING_SOON_DAYS = 14;

/** Local calendar day as `YYYY-MM-DD`. */
export function isoDay(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

export type AftercareState = 'planned' | 'active' | 'ending' | 'completed';

/** Aftercare status, with "ending" for active intervals that end within two weeks. */
export function aftercareState(patient: Pick<Patient, 'aftercareStart' | 'aftercareEnd'>, now = new Date()): AftercareState {
  const status = aftercareStatus(patient, isoDay(now));
  if (status !== 'active') return status;
  const left = daysUntil(patient.aftercareEnd, now);
  return left !== null && left <= ENDING_SOON_DAYS ? 'ending' : 'active';
}

/** "15.01.2026 – 14.07.2026": a day string formatted without shifting it through time zones. */
export function dayText(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return day;
  return formatDate(new Date(y, m - 1, d), { dateStyle: 'medium' });
}

/** No badge for a patient whose aftercare interval the upstream did not give (both days read as ''). */
export function AftercareBadge({ patient, now }: { patient: Pick<Patient, 'aftercareStart' | 'aftercareEnd'>; now?: Date }) {
  if (!patient.aftercareStart || !patient.aftercareEnd) return null;
  const state = aftercareState(patient, now);
  return <span className={`badge badge-${state}`}>{t(`freshness.aftercare.${state}`)}</span>;
}

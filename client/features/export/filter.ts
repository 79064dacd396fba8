import type { ExportFilter, ExportKind } from './exports.ts';
import { USES_PERIOD } from './exports.ts';

const pad = (n: number) => String(n).padStart(2, '0');
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
/** The statistics calls accept at most 731 days. */
export const MAX_DAYS = 731;

export function localToday(now = new Date()): string {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

function shiftDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Last 90 days, every patient. */
export function defaultFilter(today = localToday()): ExportFilter {
  return { from: shiftDays(today, -89), to: today, status: 'all', coachId: '' };
}

/** Locale key of what is wrong with the filter for this kind, or null. */
export function filterError(kind: ExportKind, filter: ExportFilter): string | null {
  if (!USES_PERIOD[kind]) return null;
  if (!ISO_DAY.test(filter.from) || !ISO_DAY.test(filter.to)) return 'export.periodInvalid';
  if (filter.from > filter.to) return 'export.periodReversed';
  const days = (Date.parse(`${filter.to}T00:00:00Z`) - Date.parse(`${filter.from}T00:00:00Z`)) / 86_400_000 + 1;
  if (days > MAX_DAYS) return 'export.periodTooLong';
  return null;
}

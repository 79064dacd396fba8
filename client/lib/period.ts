import { dateFormat, formatDate, locale } from './i18n.ts';

/** Periods are whole days as `YYYY-MM-DD`, computed in UTC so no time zone shifts a day. */
export interface Period {
  from: string;
  to: string;
  /** Only patients whose primary coach this is; absent = all. */
  coachId?: string;
}

/** The server accepts at most 731 days (two years, a leap day included). */
export const MAX_PERIOD_DAYS = 731;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** Today in the coach's local calendar. */
export function todayIso(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Number of days from `from` to `to`, both counted. */
export function periodLength({ from, to }: Period): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

export function isDay(value: string | null | undefined): value is string {
  return !!value && ISO_DAY.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
}

/** The last `days` days up to today (90 by default, the server's own default). */
export function lastDays(days: number, today = todayIso()): Period {
  return { from: addDays(today, -(days - 1)), to: today };
}

/** Locale key of what is wrong with a period, or null. */
export function periodError(period: Period): string | null {
  if (!isDay(period.from) || !isDay(period.to)) return 'stats.periodInvalid';
  if (period.from > period.to) return 'stats.periodReversed';
  if (periodLength(period) > MAX_PERIOD_DAYS) return 'stats.periodTooLong';
  return null;
}

/** The period from ?from=&to=, falling back to the last 90 days for anything missing or malformed. */
export function periodFromSearch(search: string, today = todayIso()): Period {
  const params = new URLSearchParams(search);
  const from = params.get('from');
  const to = params.get('to');
  const fallback = lastDays(90, today);
  const period = { from: isDay(from) ? from : fallback.from, to: isDay(to) ? to : fallback.to };
  const coachId = params.get('coach') || undefined;
  return { ...(periodError(period) ? fallback : period), ...(coachId ? { coachId } : {}) };
}

/*
 * One date format per language for days and periods: the medium date style (26.11.2026, Nov 26, 2026,
 * 26 nov. 2026), read in UTC so the day shown is the day the server meant.
 */
const DAY_STYLE: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeZone: 'UTC' };
const utc = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** A day `YYYY-MM-DD` in the active language; anything else as it came. */
export function formatDay(day: string): string {
  return Number.isNaN(utc(day)) ? day : formatDate(utc(day), DAY_STYLE);
}

/** A period as one range in the active language ("01.–26.11.2026", "Nov 1 – 26, 2026"). */
export function formatPeriod({ from, to }: Period): string {
  if (!isDay(from) || !isDay(to)) return `${formatDay(from)} – ${formatDay(to)}`;
  return dateFormat(locale.value, DAY_STYLE).formatRange(utc(from), utc(to));
}

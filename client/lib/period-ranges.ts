import { addDays, periodFromSearch, periodLength, type Period } from './period.ts';

/*
 * Calendar ranges for Controlling and the period each is compared with. Days are `YYYY-MM-DD` strings and all
 * arithmetic runs in UTC (Date.UTC rolls month 0 back into December and day 0 back to the month's last day), so no
 * time zone or daylight-saving change moves a day. docs: docs/product.md#controlling
 */

/** The one-click choices, in the order the screen offers them. "This …" ranges end today, not at the unit's end. */
export const CALENDAR_RANGES = ['thisMonth', 'lastMonth', 'thisQuarter', 'lastQuarter', 'yearToDate'] as const;
export type CalendarRange = (typeof CALENDAR_RANGES)[number];

/** What a period is compared with: the same span one month, quarter or year earlier, or the same days just before. */
export type ComparisonBasis = 'month' | 'quarter' | 'year' | 'days';

const day = (year: number, month: number, date: number) => new Date(Date.UTC(year, month - 1, date)).toISOString().slice(0, 10);
const parts = (iso: string) => iso.split('-').map(Number) as [number, number, number];
const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
/** First month (1, 4, 7 or 10) of the quarter a month lies in. */
const quarterStart = (month: number) => month - ((month - 1) % 3);

export function calendarRange(range: CalendarRange, today: string): Period {
  const [year, month] = parts(today);
  const quarter = quarterStart(month);
  switch (range) {
    case 'thisMonth':
      return { from: day(year, month, 1), to: today };
    case 'lastMonth':
      return { from: day(year, month - 1, 1), to: day(year, month, 0) };
    case 'thisQuarter':
      return { from: day(year, quarter, 1), to: today };
    case 'lastQuarter':
      return { from: day(year, quarter - 3, 1), to: day(year, quarter, 0) };
    case 'yearToDate':
      return { from: day(year, 1, 1), to: today };
  }
}

/** The calendar range a period is exactly (to mark its button as chosen), or null for a free range. */
export function calendarRangeOf(period: Period, today: string): CalendarRange | null {
  return (
    CALENDAR_RANGES.find((range) => {
      const candidate = calendarRange(range, today);
      return candidate.from === period.from && candidate.to === period.to;
    }) ?? null
  );
}

/** What each calendar range is compared with (in January to March "this quarter" and "year to date" are the same days). */
export const RANGE_BASIS: Record<CalendarRange, ComparisonBasis> = {
  thisMonth: 'month',
  lastMonth: 'month',
  thisQuarter: 'quarter',
  lastQuarter: 'quarter',
  yearToDate: 'year',
};

/** The basis of a free range: one starting on a month's first day and staying within a month, quarter or year. */
export function comparisonBasis({ from, to }: Period): ComparisonBasis {
  const [fromYear, fromMonth, fromDay] = parts(from);
  const [toYear, toMonth] = parts(to);
  if (fromDay !== 1 || toYear !== fromYear) return 'days';
  if (toMonth === fromMonth) return 'month';
  if (quarterStart(fromMonth) === fromMonth && quarterStart(toMonth) === fromMonth) return 'quarter';
  if (fromMonth === 1) return 'year';
  return 'days';
}

const MONTHS: Record<Exclude<ComparisonBasis, 'days'>, number> = { month: 1, quarter: 3, year: 12 };

/** `iso` moved back by whole months; a month's last day stays the last day, a later day is capped at the month's end. */
function monthsBack(iso: string, months: number): string {
  const [year, month, date] = parts(iso);
  const target = new Date(Date.UTC(year, month - 1 - months, 1));
  const last = daysInMonth(target.getUTCFullYear(), target.getUTCMonth() + 1);
  return day(target.getUTCFullYear(), target.getUTCMonth() + 1, date === daysInMonth(year, month) ? last : Math.min(date, last));
}

/**
 * The previous period of the same length: November 1-26 is compared with October 1-26, October with September,
 * the third quarter with the second, January 1 to today with the same days a year before; any other range with as
 * many days directly before it. Calendar spans keep their calendar meaning, so a month may have a day more or less.
 */
export function previousPeriod(period: Period, basis = comparisonBasis(period)): { period: Period; basis: ComparisonBasis } {
  const coach = period.coachId ? { coachId: period.coachId } : {};
  if (basis === 'days') {
    return { basis, period: { from: addDays(period.from, -periodLength(period)), to: addDays(period.from, -1), ...coach } };
  }
  return { basis, period: { from: monthsBack(period.from, MONTHS[basis]), to: monthsBack(period.to, MONTHS[basis]), ...coach } };
}

export const isCalendarRange = (value: unknown): value is CalendarRange => (CALENDAR_RANGES as readonly unknown[]).includes(value);

/**
 * The period of an address: `?range=lastMonth` is that range as of today (a bookmark of "this month" stays this
 * month), otherwise `?from=&to=` (client/lib/period.ts); `coach` narrows either. `range` is null for a free range.
 */
export function periodFromAddress(search: string, today: string): { period: Period; range: CalendarRange | null } {
  const range = new URLSearchParams(search).get('range');
  const free = periodFromSearch(search, today);
  if (!isCalendarRange(range)) return { period: free, range: null };
  return { period: { ...calendarRange(range, today), ...(free.coachId ? { coachId: free.coachId } : {}) }, range };
}

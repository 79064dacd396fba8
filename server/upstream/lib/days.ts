/*
 * Calendar days for aftercare and statistics. A "day" is a YYYY-MM-DD string in German time
 * (Europe/Berlin): a phone call at 00:30 on 2 March Berlin time belongs to 2 March, not 1 March UTC.
 */

const berlinDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The Berlin calendar day of an instant. */
export function dayOf(instant: Date | string): string {
  return berlinDay.format(typeof instant === 'string' ? new Date(instant) : instant);
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const toUtc = (day: string) => Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));

/** The instant a Berlin day begins, as an ISO string: an instant is on that day or later when it is not before it. */
export function startOfDay(day: string): string {
  // Berlin is one or two hours ahead of UTC: its midnight is 23:00 or 22:00 UTC of the day before.
  const summer = new Date(toUtc(day) - 2 * HOUR_MS);
  return (dayOf(summer) === day ? summer : new Date(toUtc(day) - HOUR_MS)).toISOString();
}

/** day + n days (n may be negative). */
export function addDays(day: string, n: number): string {
  return new Date(toUtc(day) + n * DAY_MS).toISOString().slice(0, 10);
}

/** Days from a to b, both counted: daysBetween('2026-01-01', '2026-01-03') = 3; 0 when b < a. */
export function daysInclusive(a: string, b: string): number {
  return b < a ? 0 : Math.round((toUtc(b) - toUtc(a)) / DAY_MS) + 1;
}

/** Every day from a to b, both included. */
export function eachDay(a: string, b: string): string[] {
  const days: string[] = [];
  for (let d = a; d <= b; d = addDays(d, 1)) days.push(d);
  return days;
}

export const maxDay = (a: string, b: string) => (a > b ? a : b);
export const minDay = (a: string, b: string) => (a < b ? a : b);

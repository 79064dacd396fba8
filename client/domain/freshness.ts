/** How long ago a patient's app last synchronised data, as a traffic light. */
export type Freshness = 'green' | 'yellow' | 'red' | 'grey';

const DAY = 24 * 60 * 60 * 1000;

/**
 * The rule coaches asked for: data within 2 days is fine (green); older than 2 days is worth a look
 * (yellow); older than 7 days needs a call (red); older than 30 days, or never any data, means the
 * app is no longer in use (grey). Invalid or future-broken dates count as "no data".
 */
export function freshness(lastDataAt: string | null | undefined, now: Date = new Date()): Freshness {
  if (!lastDataAt) return 'grey';
  const time = Date.parse(lastDataAt);
  if (Number.isNaN(time)) return 'grey';
  const age = now.getTime() - time;
  if (age <= 2 * DAY) return 'green';
  if (age <= 7 * DAY) return 'yellow';
  if (age <= 30 * DAY) return 'red';
  return 'grey';
}

/** Whole days since the last data, or null when there never was any. */
export function daysSince(value: string | null | undefined, now: Date = new Date()): number | null {
  if (!value) return null;
  const time = Date.parse(value);
  if (Number.isNaN(time)) return null;
  return Math.max(0, Math.floor((now.getTime() - time) / DAY));
}

/** Days until a date (negative when past), or null. */
export function daysUntil(value: string | null | undefined, now: Date = new Date()): number | null {
  if (!value) return null;
  // A plain day ("2026-12-01") is a local calendar day, not UTC midnight.
  const plain = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const time = plain ? new Date(Number(plain[1]), Number(plain[2]) - 1, Number(plain[3])).getTime() : Date.parse(value);
  if (Number.isNaN(time)) return null;
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const target = new Date(time);
  const startOfTarget = new Date(target.getFullYear(), target.getMonth(), target.getDate()).getTime();
  return Math.round((startOfTarget - startOfToday) / DAY);
}

/**
 * True once the last day of aftercare (`YYYY-MM-DD`) lies behind `now`. Silence after the end is expected: such a
 * patient's traffic light is neutral, never an alarm.
 */
export function aftercareEnded(aftercareEnd: string | null | undefined, now: Date = new Date()): boolean {
  const left = daysUntil(aftercareEnd, now);
  return left !== null && left < 0;
}

/** Red needs a call first, then yellow; grey (gone quiet long ago) after those; green last. */
const ORDER: Record<Freshness, number> = { red: 0, yellow: 1, grey: 2, green: 3 };

export function byAttention<T>(items: T[], lastDataOf: (item: T) => string | null | undefined, now = new Date()): T[] {
  return [...items].sort((a, b) => {
    const fa = freshness(lastDataOf(a), now);
    const fb = freshness(lastDataOf(b), now);
    if (fa !== fb) return ORDER[fa] - ORDER[fb];
    // Within one colour, the longest silence first.
    return (Date.parse(lastDataOf(a) ?? '') || 0) - (Date.parse(lastDataOf(b) ?? '') || 0);
  });
}

import { formatDate, t } from './i18n.ts';

/*
 * Telling patients apart: two "Weber, Ute" differ by their date of birth. Shown as the day in the language's one
 * date format plus the age in whole years ("12.03.1961 (64)").
 */

const PLAIN_DAY = /^(\d{4})-(\d{2})-(\d{2})/;

/** Whole years from a `YYYY-MM-DD` birth date to the local day of `now`, or null when the date is unreadable. */
export function ageOn(birthDate: string, now: Date = new Date()): number | null {
  const day = PLAIN_DAY.exec(birthDate);
  if (!day) return null;
  const [year, month, date] = [Number(day[1]), Number(day[2]), Number(day[3])];
  const hadBirthday = now.getMonth() + 1 > month || (now.getMonth() + 1 === month && now.getDate() >= date);
  const age = now.getFullYear() - year - (hadBirthday ? 0 : 1);
  return age >= 0 && age < 150 ? age : null;
}

/** "12.03.1961 (64)" in German, "Mar 12, 1961 (64)" in English; '' when the upstream gave no readable date. */
export function birthText(birthDate: string | null | undefined, now: Date = new Date()): string {
  const day = PLAIN_DAY.exec(birthDate ?? '');
  const age = day ? ageOn(birthDate as string, now) : null;
  if (!day || age === null) return '';
  // A plain day is a local calendar day: formatted without a shift through UTC.
  const date = formatDate(new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])), { dateStyle: 'medium' });
  return t('identity.birth', { date, age });
}

/** A `tel:` address a phone dials: the digits and a leading +, whatever separators the number was written with. */
export const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;

/** The first appointment from now on, or null. */
export function nextAppointment<A extends { startsAt: string }>(patient: { appointments: A[] }, now = Date.now()): A | null {
  return [...patient.appointments].filter((a) => Date.parse(a.startsAt) >= now).sort((a, b) => a.startsAt.localeCompare(b.startsAt))[0] ?? null;
}

/**
 * An appointment's start: the weekday, then the date and time in the language's one medium format (Mi, 09.12.2026,
 * 14:00 / Wed, Dec 9, 2026, 2:00 PM), as every other date of the interface.
 */
export function appointmentTime(value: string): string {
  return `${formatDate(value, { weekday: 'short' })}, ${formatDate(value, { dateStyle: 'medium', timeStyle: 'short' })}`;
}

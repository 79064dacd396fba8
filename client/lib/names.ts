/*
 * How people are named on screen. An upstream may leave names out (a coach account with only an email, a
 * patient known only by code): then a coach is shown by email and a patient by code, never as ", ".
 */

interface Named {
  firstName: string;
  lastName: string;
}
export type CoachLike = Named & { email: string };
type PatientLike = Named & { patientCode: string; id?: string; patientId?: string };
const codeOf = (p: PatientLike) => p.patientCode || `#${p.id ?? p.patientId ?? ''}`;

const natural = (p: Named) => `${p.firstName} ${p.lastName}`.trim();
const listed = (p: Named) => [p.lastName, p.firstName].filter((part) => part.trim() !== '').join(', ');

/** "Clara Coach", or the email when the coach has no names. */
export const coachName = (coach: CoachLike): string => natural(coach) || coach.email;
/** "Coach, Clara" for lists sorted by last name, or the email. */
export const coachListName = (coach: CoachLike): string => listed(coach) || coach.email;
/** "Erika Muster", or the pseudonym code when the answer had no names. */
export const patientName = (patient: PatientLike): string => natural(patient) || codeOf(patient);
/** "Muster, Erika" for lists sorted by last name, or the code. */
export const patientListName = (patient: PatientLike): string => listed(patient) || codeOf(patient);

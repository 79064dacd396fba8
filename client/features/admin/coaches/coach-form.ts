import type { Coach, CoachCreate, CoachPatch, CoachUpdate } from '../../../../contract/schemas/coaches.ts';
import { changedFields } from '../../../lib/changes.ts';
import { isEmail } from '../../../lib/validation.ts';
import { MIN_PASSWORD_LENGTH } from '../../../../contract/password-rules.ts';
import { draftStorageKey } from '../../../lib/drafts.ts';
import { storedDraft } from '../../../state/sealed-drafts.ts';
import { containsPersonalData } from '../../../lib/password-rules.ts';

export interface CoachFormValues {
  email: string;
  firstName: string;
  lastName: string;
  title: string;
  phone: string;
  isAdmin: boolean;
  isHealthManager: boolean;
  language: 'de' | 'en' | 'fr';
  /** Only when creating; empty = the coach sets one through the emailed link. */
  password: string;
  /** Only when creating without a password: send the link to set one. */
  sendInvite: boolean;
}

export const EMPTY_COACH: CoachFormValues = {
  email: '',
  firstName: '',
  lastName: '',
  title: '',
  phone: '',
  isAdmin: false,
  isHealthManager: false,
  language: 'de',
  password: '',
  sendInvite: true,
};

export function coachToForm(coach: Coach): CoachFormValues {
  return {
    ...EMPTY_COACH,
    email: coach.email,
    firstName: coach.firstName,
    lastName: coach.lastName,
    title: coach.title,
    phone: coach.phone,
    isAdmin: coach.isAdmin,
    isHealthManager: coach.isHealthManager,
    language: coach.language,
    sendInvite: false,
  };
}

/** Locale keys of problems per field; empty when the form may be sent. */
export function coachFormErrors(values: CoachFormValues, creating: boolean): Partial<Record<keyof CoachFormValues, string>> {
  const errors: Partial<Record<keyof CoachFormValues, string>> = {};
  if (values.email.trim() === '') errors.email = 'admin.coach.emailRequired';
  else if (!isEmail(values.email.trim())) errors.email = 'admin.coach.emailInvalid';
  if (values.firstName.trim() === '') errors.firstName = 'admin.required';
  if (values.lastName.trim() === '') errors.lastName = 'admin.required';
  if (creating && values.password !== '') {
    if (values.password.length < MIN_PASSWORD_LENGTH) errors.password = 'admin.coach.passwordTooShort';
    else if (containsPersonalData(values.password, values)) errors.password = 'accounts.admin.passwordPersonal';
  }
  return errors;
}

function common(values: CoachFormValues): CoachUpdate {
  return {
    email: values.email.trim(),
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    title: values.title.trim(),
    phone: values.phone.trim(),
    isAdmin: values.isAdmin,
    isHealthManager: values.isHealthManager,
    language: values.language,
  };
}

export function toCreateBody(values: CoachFormValues): CoachCreate {
  return values.password ? { ...common(values), password: values.password } : common(values);
}

/**
 * The PATCH of an edited coach: only the fields the administrator changed against `coach`, the version the form was
 * opened with. A PUT would replace the whole record, and an API that keeps the password on the coach (LoopBack's
 * User) refuses a coach without one (422); the lock and anything the form does not show stay as they are.
 */
export function toPatchBody(values: CoachFormValues, coach: Coach): CoachPatch {
  return changedFields(common(coachToForm(coach)), common(values));
}

/** What a coach-form draft keeps: the typed values, never a password, and the version they were typed on. */
export interface CoachDraft {
  values: Omit<CoachFormValues, 'password'>;
  base: Coach | null;
}

/** The draft of the coach form of administrator `adminId` for `coachId` (absent: a new coach); null without a session. */
export function coachDraftKey(adminId: string | undefined, coachId?: string): string | null {
  return adminId ? draftStorageKey(adminId, coachId ? `coach-${coachId}` : 'new-coach', 'coach-form') : null;
}

/** True when that form has unsaved values (the screen reopens it after a reload). */
export function hasCoachDraft(adminId: string | undefined, coachId?: string): boolean {
  const key = coachDraftKey(adminId, coachId);
  return key !== null && storedDraft<CoachDraft>(key) !== null;
}

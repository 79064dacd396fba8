import { containsPersonalData, MIN_PASSWORD_LENGTH, type PersonalData } from '../../contract/password-rules.ts';

/** Who a password must not name: the account's email and name, as far as the form knows them. */
export type PasswordOwner = PersonalData;
export { containsPersonalData };

/** The locale namespace whose messages a password form shows (the same rule, each screen its own keys). */
export type PasswordTexts = 'resetPassword' | 'settings';

/**
 * The new-password rules of docs/product.md#validation, for the reset screen and the settings form alike: each
 * returns the locale key of the message, or null when the value is valid. With the `owner` known, a password
 * naming them is refused here already, as the server would.
 */
export function newPasswordError(value: string, texts: PasswordTexts, owner?: PasswordOwner): string | null {
  if (value === '') return `${texts}.passwordRequired`;
  if (value.length < MIN_PASSWORD_LENGTH) return `${texts}.passwordTooShort`;
  if (owner && containsPersonalData(value, owner)) return 'accounts.passwordPersonal';
  return null;
}

export function repeatPasswordError(value: string, texts: PasswordTexts): string | null {
  if (value === '') return `${texts}.repeatRequired`;
  if (value.length < MIN_PASSWORD_LENGTH) return `${texts}.passwordTooShort`;
  return null;
}

/** On submit the match check runs first, then validity (of these two and of `otherFieldsValid`); null means send. */
export function passwordSubmitError(next: string, repeat: string, texts: PasswordTexts, otherFieldsValid = true, owner?: PasswordOwner): string | null {
  if (next !== repeat) return `${texts}.mismatch`;
  if (!otherFieldsValid || newPasswordError(next, texts, owner) || repeatPasswordError(repeat, texts)) return `${texts}.checkFields`;
  return null;
}

/** How the server refused a new password (400 with one of these codes at the password field). */
export type PasswordRefusal = 'tooCommon' | 'personalData';

/** The server's refusal of a password, or null when the failure was something else. */
export function passwordRefusal(failure: unknown): PasswordRefusal | null {
  const { status, code } = (failure ?? {}) as { status?: unknown; code?: unknown };
  if (status !== 400) return null;
  if (code === 'PASSWORD_TOO_COMMON') return 'tooCommon';
  if (code === 'PASSWORD_CONTAINS_PERSONAL_DATA') return 'personalData';
  return null;
}

/**
 * The locale key of the message at the password field for a refusal; `personalKey` words the personal-data
 * case for whose password it is (one's own, or a coach's that an administrator sets).
 */
export function refusalText(refusal: PasswordRefusal, personalKey = 'accounts.passwordPersonal'): string {
  return refusal === 'tooCommon' ? 'accounts.passwordTooCommon' : personalKey;
}

import { MIN_PASSWORD_LENGTH } from './validation.ts';

/** The locale namespace whose messages a password form shows (the same rule, each screen its own keys). */
export type PasswordTexts = 'resetPassword' | 'settings';

/**
 * The new-password rules of docs/product.md#validation, for the reset screen and the settings form alike: each
 * returns the locale key of the message, or null when the value is valid.
 */
export function newPasswordError(value: string, texts: PasswordTexts): string | null {
  if (value === '') return `${texts}.passwordRequired`;
  if (value.length < MIN_PASSWORD_LENGTH) return `${texts}.passwordTooShort`;
  return null;
}

export function repeatPasswordError(value: string, texts: PasswordTexts): string | null {
  if (value === '') return `${texts}.repeatRequired`;
  if (value.length < MIN_PASSWORD_LENGTH) return `${texts}.passwordTooShort`;
  return null;
}

/** On submit the match check runs first, then validity (of these two and of `otherFieldsValid`); null means send. */
export function passwordSubmitError(next: string, repeat: string, texts: PasswordTexts, otherFieldsValid = true): string | null {
  if (next !== repeat) return `${texts}.mismatch`;
  if (!otherFieldsValid || newPasswordError(next, texts) || repeatPasswordError(repeat, texts)) return `${texts}.checkFields`;
  return null;
}

import { MIN_PASSWORD_LENGTH } from '../../lib/validation.ts';

export interface PasswordValues {
  current: string;
  next: string;
  repeat: string;
}

/** Locale key of a field's message, or null when valid (docs/product.md#validation for the new password). */
export function currentPasswordError(value: string): string | null {
  return value === '' ? 'settings.currentRequired' : null;
}
export function newPasswordError(value: string): string | null {
  if (value === '') return 'settings.passwordRequired';
  if (value.length < MIN_PASSWORD_LENGTH) return 'settings.passwordTooShort';
  return null;
}
export function repeatPasswordError(value: string): string | null {
  if (value === '') return 'settings.repeatRequired';
  if (value.length < MIN_PASSWORD_LENGTH) return 'settings.passwordTooShort';
  return null;
}

/** On submit the match check runs first, then validity (docs/product.md#validation); null means send. */
export function submitError(values: PasswordValues): string | null {
  if (values.next !== values.repeat) return 'settings.mismatch';
  if (currentPasswordError(values.current) || newPasswordError(values.next) || repeatPasswordError(values.repeat)) {
    return 'settings.checkFields';
  }
  return null;
}

import * as rules from '../../lib/password-rules.ts';

export interface PasswordValues {
  current: string;
  next: string;
  repeat: string;
}

/** Locale key of a field's message, or null when valid (the new-password rules: lib/password-rules.ts). */
export function currentPasswordError(value: string): string | null {
  return value === '' ? 'settings.currentRequired' : null;
}
export const newPasswordError = (value: string, owner?: rules.PasswordOwner) => rules.newPasswordError(value, 'settings', owner);
export const repeatPasswordError = (value: string) => rules.repeatPasswordError(value, 'settings');

/** On submit the match check runs first, then validity of all three fields; null means send. */
export const submitError = (values: PasswordValues, owner?: rules.PasswordOwner) =>
  rules.passwordSubmitError(values.next, values.repeat, 'settings', currentPasswordError(values.current) === null, owner);

import { MIN_PASSWORD_LENGTH } from '../../lib/validation.ts';

/** Locale key of a field's message, or null when valid (docs/product.md#validation). */
export function newPasswordError(value: string): string | null {
  if (value === '') return 'resetPassword.passwordRequired';
  if (value.length < MIN_PASSWORD_LENGTH) return 'resetPassword.passwordTooShort';
  return null;
}

export function repeatPasswordError(value: string): string | null {
  if (value === '') return 'resetPassword.repeatRequired';
  if (value.length < MIN_PASSWORD_LENGTH) return 'resetPassword.passwordTooShort';
  return null;
}

/** On submit the match check runs first, then validity; null means the request may be sent. */
export function submitError(password: string, repeat: string): string | null {
  if (password !== repeat) return 'resetPassword.mismatch';
  if (newPasswordError(password) || repeatPasswordError(repeat)) return 'resetPassword.checkFields';
  return null;
}

/** accessToken, or access_token as fallback (docs/product.md#screens). */
export function tokenFromSearch(search: string): string | null {
  const params = new URLSearchParams(search);
  return params.get('accessToken') || params.get('access_token') || null;
}

/** The address without the token parameters, so the secret does not stay in the address bar or history. */
export function addressWithoutToken(pathname: string, search: string, hash: string): string {
  const params = new URLSearchParams(search);
  params.delete('accessToken');
  params.delete('access_token');
  const rest = params.toString();
  return `${pathname}${rest ? `?${rest}` : ''}${hash}`;
}

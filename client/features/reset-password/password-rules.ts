import * as rules from '../../lib/password-rules.ts';

/** Locale key of a field's message, or null when valid (the one rule set: lib/password-rules.ts). */
export const newPasswordError = (value: string) => rules.newPasswordError(value, 'resetPassword');
export const repeatPasswordError = (value: string) => rules.repeatPasswordError(value, 'resetPassword');
/** On submit the match check runs first, then validity; null means the request may be sent. */
export const submitError = (password: string, repeat: string) => rules.passwordSubmitError(password, repeat, 'resetPassword');

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

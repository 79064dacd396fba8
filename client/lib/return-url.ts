/**
 * returnUrl handling for the login guard. Only same-origin paths are accepted: an absolute URL
 * ("https://evil.example"), a protocol-relative one ("//evil.example") or a backslash trick ("/\evil")
 * would turn the login page into an open redirect.
 */
export const DEFAULT_AFTER_LOGIN = '/dashboard';

export function safeReturnUrl(value: string | null | undefined): string {
  if (!value?.startsWith('/')) return DEFAULT_AFTER_LOGIN;
  if (value.startsWith('//') || value.startsWith('/\\')) return DEFAULT_AFTER_LOGIN;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this check rejects
  if (/[\u0000-\u001f]/.test(value)) return DEFAULT_AFTER_LOGIN;
  if (value === '/login' || value.startsWith('/login?')) return DEFAULT_AFTER_LOGIN;
  return value;
}

export function loginUrlFor(requested: string): string {
  return `/login?returnUrl=${encodeURIComponent(requested)}`;
}

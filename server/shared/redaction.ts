/*
 * What no log line may carry, for the one logger (server/shared/logger.ts) of the gateway and the built-in upstream
 * alike. A neutral module: the two processes share this code, never each other's.
 * Bearer tokens, session cookies and XSRF tokens are credentials (anyone who reads a line with one could act as
 * the coach); the reset link carries its one-time token in the query string.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-xsrf-token"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["x-xsrf-token"]',
  'headers["set-cookie"]',
];

const TOKEN_QUERY = /([?&](?:access_?token|accessToken)=)[^&#]*/gi;

/** Replaces the values of accessToken / access_token query parameters in a URL or path. */
export function redactUrl(url: string): string {
  return url.replace(TOKEN_QUERY, '$1[Redacted]');
}

/** Only parameter names: filter values hold search words (patient names), reset links hold tokens. */
export function queryNamesOnly(url: string): string {
  return url.replace(/([?&][^=&#]*=)[^&#]*/g, '$1[Redacted]');
}

import pino from 'pino';
import type { DestinationStream, Logger } from 'pino';

/**
 * JSON lines on stdout. Health data flows through this gateway, so anything that could identify a person or
 * carry a credential is removed before a line is written: auth and cookie headers (session takeover if a log
 * leaks) and the one-time reset token that travels in the reset link's query string.
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

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'gateway' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[Redacted]' },
    },
    destination ?? pino.destination({ fd: 1, sync: false }),
  );
}

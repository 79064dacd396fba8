import { pino, type DestinationStream, type Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { RequestHandler } from 'express';

// Same redaction as the gateway. Bearer tokens, session cookies and XSRF tokens are credentials; a log
// line that carries one would let anyone who reads the logs act as the coach.
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-xsrf-token"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["x-xsrf-token"]',
  'headers["set-cookie"]',
];

/** Reset links carry the token in the query (`?access_token=`); it must never reach a log line. */
export function scrubUrl(url: string): string {
  return url.replace(/([?&](?:access_?token|accessToken)=)[^&#]*/gi, '$1[Redacted]');
}

export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: 'upstream' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT, censor: '[Redacted]' },
    },
    options.destination,
  );
}

/** Request log: method, scrubbed URL, status and time only - no bodies (they hold patient data). */
export function requestLogger(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    serializers: {
      req: (req: { method: string; url: string; headers: Record<string, unknown>; id: unknown }) => ({
        id: req.id,
        method: req.method,
        // Only parameter names: filter values hold search words (patient names), reset links hold tokens.
        url: scrubUrl(req.url).replace(/([?&][^=&#]*=)[^&#]*/g, '$1[Redacted]'),
        headers: req.headers,
      }),
      res: (res: { statusCode: number; headers: Record<string, unknown> }) => ({ statusCode: res.statusCode, headers: res.headers }),
    },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
  }) as unknown as RequestHandler;
}

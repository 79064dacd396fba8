import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { RequestHandler } from 'express';
import { queryNamesOnly, redactUrl } from '../../shared/redaction.ts';

// The same redaction as the gateway (server/shared/redaction.ts).
export { redactUrl as scrubUrl } from '../../shared/redaction.ts';

/** Request log: method, scrubbed URL, status and time only - no bodies (they hold patient data). */
export function requestLogger(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    serializers: {
      req: (req: { method: string; url: string; headers: Record<string, unknown>; id: unknown }) => ({
        id: req.id,
        method: req.method,
        url: queryNamesOnly(redactUrl(req.url)),
        headers: req.headers,
      }),
      res: (res: { statusCode: number; headers: Record<string, unknown> }) => ({ statusCode: res.statusCode, headers: res.headers }),
    },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
  }) as unknown as RequestHandler;
}

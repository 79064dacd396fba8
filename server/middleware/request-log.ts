import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import type { Logger } from 'pino';
import { queryNamesOnly, redactUrl } from '../shared/redaction.ts';

/**
 * A caller-supplied id is only accepted when it is short and plain: anything else could forge log lines
 * or smuggle data into headers, so it is replaced by a fresh UUID.
 */
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
  // The proxy forwards the header, so the upstream's log lines carry the same id.
  req.headers['x-request-id'] = id;
  res.setHeader('X-Request-Id', id);
  return id;
}

const QUIET_PATHS = new Set(['/healthz', '/readyz']);

/** Only parameter names: filter values hold search words (patient names), reset links hold tokens. */
const loggedUrl = (url: string) => (url.includes('?') ? queryNamesOnly(redactUrl(url)) : url);

/**
 * pino-http with lean serializers over the raw request and response: one line per request with what an operator
 * needs to follow it (id, method, URL without query values, client address, status, time). No headers at all:
 * they would carry tokens, cookies and XSRF values that redaction must then find again, they make up most of a
 * line's bytes, and the response's are the same security headers on every answer.
 */
export function requestLog(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: requestId,
    // Health probes hit every few seconds; logging them would drown the real traffic.
    autoLogging: { ignore: (req) => QUIET_PATHS.has((req.url ?? '').split('?')[0]) },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    wrapSerializers: false,
    serializers: {
      req: (req: IncomingMessage & { id?: unknown; originalUrl?: string }) => ({
        id: req.id,
        method: req.method,
        url: loggedUrl(String(req.originalUrl ?? req.url)),
        remoteAddress: req.socket?.remoteAddress,
      }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
  });
}

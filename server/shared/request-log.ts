import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { queryNamesOnly, redactUrl } from './redaction.ts';

declare module 'http' {
  interface IncomingMessage {
    /** This request's id (X-Request-Id), in every log line about it. */
    id: string;
  }
  interface ServerResponse {
    /** An unexpected error the answer was made for (server/errors.ts): its completion line names it. */
    err?: unknown;
  }
}

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

/** Health probes hit every few seconds; logging them would drown the real traffic. */
const QUIET_PATHS = new Set(['/healthz', '/readyz']);
const pathOf = (url: string) => {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};

/** Only parameter names: filter values hold search words (patient names), reset links hold tokens. */
const loggedUrl = (url: string) => (url.includes('?') ? queryNamesOnly(redactUrl(url)) : url);

interface RequestPart {
  id: string;
  method: string | undefined;
  url: string;
  remoteAddress: string | undefined;
}

interface Loggers {
  /** Lines of the fields above only. */
  plain: Logger;
  /** Lines that carry an error object, which may hold anything: redacted as every other line. */
  redacting: Logger;
}

function logCompletion(loggers: Loggers, req: RequestPart, res: ServerResponse, start: number): void {
  const responseTime = Date.now() - start;
  const status = res.statusCode;
  if (res.err !== undefined || status >= 500) {
    const err = res.err ?? new Error(`failed with status code ${status}`);
    loggers.redacting.error({ req, res: { statusCode: status }, err, responseTime }, 'request errored');
  } else if (status >= 400) loggers.plain.warn({ req, res: { statusCode: status }, responseTime }, 'request completed');
  else loggers.plain.info({ req, res: { statusCode: status }, responseTime }, 'request completed');
}

/**
 * One line per request when its answer is done: id, method, URL without query values, client address, status and
 * time (the line pino-http wrote, without its per-request child logger, which serialized and redacted the request
 * once more for every request). No headers at all: they would carry tokens, cookies and XSRF values that redaction
 * must then find again, they made up most of a line's bytes, and the response's are the same on every answer.
 */
export function requestLog(logger: Logger) {
  // A completion line holds the fields of RequestPart, a status and a time, nothing redaction could find; without
  // it pino no longer copies the line's req and res objects to look (about a twentieth of the gateway's CPU on a small GET).
  const loggers: Loggers = { plain: logger.child({}, { redact: [] }), redacting: logger };
  return (req: IncomingMessage & { originalUrl?: string }, res: ServerResponse, next: () => void): void => {
    req.id = requestId(req, res);
    const url = req.originalUrl ?? req.url ?? '';
    if (!QUIET_PATHS.has(pathOf(url))) {
      const start = Date.now();
      const line: RequestPart = { id: req.id, method: req.method, url: loggedUrl(url), remoteAddress: req.socket.remoteAddress };
      // 'close' comes for every answer, finished or cut off.
      res.once('close', () => logCompletion(loggers, line, res, start));
    }
    next();
  };
}

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

/** pino-http with our own request serializer: the URL is logged with reset tokens removed, headers are redacted by the logger. */
export function requestLog(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: requestId,
    // Health probes hit every few seconds; logging them would drown the real traffic.
    autoLogging: { ignore: (req) => QUIET_PATHS.has((req.url ?? '').split('?')[0]) },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    serializers: {
      req: (req) => ({
        id: req.id,
        method: req.method,
        url: queryNamesOnly(redactUrl(String(req.url))),
        headers: req.headers,
        remoteAddress: req.remoteAddress,
      }),
      res: (res) => ({ statusCode: res.statusCode, headers: res.headers }),
    },
  });
}

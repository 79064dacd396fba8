import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Request, RequestHandler } from 'express';
import { createProxyMiddleware, debugProxyErrorsPlugin, proxyEventsPlugin } from 'http-proxy-middleware';
import type { Logger } from 'pino';
import { errorBody } from '../errors.ts';
import { UPSTREAM_HEADERS_TO_DROP } from './security-headers.ts';
import { XSRF_SID_COOKIE, isApiPath } from './xsrf.ts';

const TIMEOUT_CODE = 'GATEWAY_UPSTREAM_TIMEOUT';

/** Removes the gateway's own cookie from the Cookie header: the upstream has no business seeing it. */
export function stripCookie(header: string, name: string): string {
  return header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '' && part.split('=')[0].trim() !== name)
    .join('; ');
}

type TrustFn = (address: string, hop: number) => boolean;

/**
 * X-Forwarded-* for the upstream (it builds the reset link from Proto/Host). Values a client sent are only
 * passed on when the peer is a trusted proxy (TRUST_PROXY); otherwise a client could make the upstream
 * mail out links to a host of its choosing.
 */
function setForwardedHeaders(proxyReq: ClientRequest, req: Request, _trust: TrustFn): void {
  // One address: the client as TRUST_PROXY resolves it (req.ip walks only the trusted hops, so entries a client
  // forged are dropped here). Passing the raw chain on would make the upstream (which trusts only loopback) see a
  // non-loopback proxy as "the client" and put every user behind it into one rate-limit bucket.
  proxyReq.setHeader('X-Forwarded-For', req.ip ?? req.socket.remoteAddress ?? '');
  proxyReq.setHeader('X-Forwarded-Proto', req.protocol);
  proxyReq.setHeader('X-Forwarded-Host', req.host);
}

function send(res: ServerResponse | Socket, status: number, code: string, message: string): void {
  if (!('writeHead' in res)) {
    res.destroy();
    return;
  }
  if (res.headersSent) {
    // The answer already started streaming: the only honest signal left is a cut connection.
    res.destroy();
    return;
  }
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(errorBody(status, code, message)));
}

export interface ProxyOptions {
  upstreamUrl: string;
  timeoutMs: number;
  logger: Logger;
  trustProxy: TrustFn;
  /** Error reporting (Sentry): an upstream that is down or too slow is reported, at most once a minute per kind. */
  report?: (error: unknown) => void;
}

const REPORT_EVERY_MS = 60_000;

/**
 * /v2 -> upstream, same path (UPSTREAM_URL may add a prefix), bodies streamed both ways (nothing parses them
 * before this), nothing retried: a POST that reached the upstream must not run twice.
 * Refused or reset: 502. No response head within PROXY_TIMEOUT_MS: 504.
 */
export function apiProxy(options: ProxyOptions): RequestHandler {
  const lastReported = new Map<string, number>();
  const report = (kind: string, error: Error & { code?: string }) => {
    const now = Date.now();
    if (!options.report || now - (lastReported.get(kind) ?? -Infinity) < REPORT_EVERY_MS) return;
    lastReported.set(kind, now);
    // A fresh error with a fixed message: nothing from the request (URL, query, body) goes into the report.
    options.report(Object.assign(new Error(`upstream ${kind}: ${error.code ?? 'error'}`), { name: 'UpstreamError' }));
  };
  return createProxyMiddleware<IncomingMessage, ServerResponse>({
    target: options.upstreamUrl,
    pathFilter: (path) => isApiPath(path),
    changeOrigin: true,
    xfwd: false,
    // The default plugins would log full URLs (reset tokens) and answer errors as text; ours do neither.
    ejectPlugins: true,
    plugins: [debugProxyErrorsPlugin, proxyEventsPlugin],
    on: {
      proxyReq: (proxyReq, req) => {
        const cookie = req.headers.cookie;
        if (cookie) {
          const rest = stripCookie(cookie, XSRF_SID_COOKIE);
          if (rest) proxyReq.setHeader('Cookie', rest);
          else proxyReq.removeHeader('Cookie');
        }
        setForwardedHeaders(proxyReq, req as Request, options.trustProxy);
        // Time to the response head, not an idle timer: a slow upstream answer is cut at the limit.
        const timer = setTimeout(() => {
          proxyReq.destroy(Object.assign(new Error('upstream did not answer in time'), { code: TIMEOUT_CODE }));
        }, options.timeoutMs);
        proxyReq.once('response', () => clearTimeout(timer));
        proxyReq.once('close', () => clearTimeout(timer));
      },
      proxyRes: (proxyRes) => {
        for (const header of UPSTREAM_HEADERS_TO_DROP) delete proxyRes.headers[header];
        // API answers carry health data: unless the upstream says otherwise, no cache may keep them.
        proxyRes.headers['cache-control'] ??= 'no-store';
      },
      error: (error: Error & { code?: string }, req: IncomingMessage, res) => {
        const timedOut = error.code === TIMEOUT_CODE;
        options.logger.warn(
          { reqId: (req as Request).id, code: error.code, method: req.method },
          timedOut ? 'upstream timed out' : 'upstream unreachable',
        );
        report(timedOut ? 'timed out' : 'unreachable', error);
        if (timedOut) send(res, 504, 'UPSTREAM_TIMEOUT', 'The upstream did not answer in time');
        else send(res, 502, 'UPSTREAM_UNAVAILABLE', 'The upstream is not reachable');
      },
    },
  }) as unknown as RequestHandler;
}

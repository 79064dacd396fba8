import { Agent, ServerResponse } from 'node:http';
import type { ClientRequest, IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { createProxyMiddleware, debugProxyErrorsPlugin, proxyEventsPlugin } from 'http-proxy-middleware';
import type { Options } from 'http-proxy-middleware';
import type { Logger } from 'pino';
import { badRequest, type ErrorBody, HttpError } from '../errors.ts';
import type { CallTranslation, Translations } from '../mapping/calls.ts';
import { MAX_API_BODY_BYTES, payloadTooLarge } from './body-limit.ts';
import { compressApiAnswers } from './compression.ts';
import { isRetryable } from './proxy-attempt.ts';
import type { Attempt } from './proxy-attempt.ts';
import { directForwarder, type ForwardEvents, takesDirectPath } from './proxy-forward.ts';
import { guardCalls } from './proxy-guard.ts';
import { prepareUpstreamHeaders, removeHopByHop } from './proxy-headers.ts';
import { answerTranslated, CLIENT_GONE, sendTranslatedBody, translateRequest } from './proxy-translate.ts';
import { clearSiteDataHeader, UPSTREAM_HEADERS_TO_DROP } from './security-headers.ts';
import { isApiPath } from './api-path.ts';

const TIMEOUT_CODE = 'GATEWAY_UPSTREAM_TIMEOUT';
const TOO_LARGE_CODE = 'GATEWAY_BODY_TOO_LARGE';
const FAULT = Symbol('proxy fault');

type ProxyError = Error & { code?: string; [FAULT]?: true };
type Events = NonNullable<Options<IncomingMessage, ServerResponse>['on']>;
type Proxy = ReturnType<typeof createProxyMiddleware<IncomingMessage, ServerResponse>>;

export interface ProxyOptions {
  upstreamUrl: string;
  timeoutMs: number;
  /** An idle pooled upstream connection is closed after this long (must be shorter than the upstream's keep-alive). */
  idleTimeoutMs: number;
  logger: Logger;
  /** Error reporting (Sentry): an upstream that is down or too slow is reported, at most once a minute per kind. */
  report?: (error: unknown) => void;
  /** The operator's field mapping, compiled (UPSTREAM_MAPPING); without it every call streams unchanged. */
  translations?: Translations;
}

const REPORT_EVERY_MS = 60_000;

/**
 * How the error handler writes the proxy's own answers (502, 504): past every wrapper on res, because the
 * compression wrapped onto res for the failed answer may hold a half-built encoder of it and would encode this
 * one too, under headers that were just removed.
 */
function writeRaw(_req: IncomingMessage, res: ServerResponse, error: ErrorBody): void {
  const body = JSON.stringify(error);
  ServerResponse.prototype.writeHead.call(res, error.error.statusCode, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  ServerResponse.prototype.end.call(res, body, 'utf8');
}

const unavailable = () => new HttpError(502, 'UPSTREAM_UNAVAILABLE', 'The upstream is not reachable', { respond: writeRaw });

/** What the proxy keeps per request while it is proxied (weakly: it goes with the request). */
interface ProxyState {
  options: ProxyOptions;
  attempts: WeakMap<IncomingMessage, Attempt>;
  /** Each request's next(): the proxy's events have none of their own, and every answer of the gateway's own goes through the one error handler (errors.ts). */
  nexts: WeakMap<IncomingMessage, NextFunction>;
  /** The translation of a call the mapping touches, and its translated body. */
  calls: WeakMap<IncomingMessage, CallTranslation>;
  bodies: WeakMap<IncomingMessage, Buffer>;
  report: (kind: string, error: ProxyError) => void;
  compress: ReturnType<typeof compressApiAnswers>;
}

function reporter(options: ProxyOptions): ProxyState['report'] {
  const lastReported = new Map<string, number>();
  return (kind, error) => {
    const now = Date.now();
    if (!options.report || now - (lastReported.get(kind) ?? -Infinity) < REPORT_EVERY_MS) return;
    lastReported.set(kind, now);
    // A fresh error with a fixed message: nothing from the request (URL, query, body) goes into the report.
    options.report(Object.assign(new Error(`upstream ${kind}: ${error.code ?? 'error'}`), { name: 'UpstreamError' }));
  };
}

function fail(state: ProxyState, req: IncomingMessage, res: ServerResponse | Socket, error: HttpError): void {
  const next = state.nexts.get(req);
  // No response object (a socket), or the answer already started streaming: the only honest signal left is a
  // cut connection.
  if (!('writeHead' in res) || res.headersSent || !next) return void res.destroy();
  next(error);
}

/** Drops what the upstream still sends for this request and answers 502 (or cuts the connection once started). */
function abandon(state: ProxyState, req: IncomingMessage, res: ServerResponse, attempt: Attempt | undefined): void {
  if (attempt?.proxyRes) {
    // The rest of the upstream's answer is read and dropped (destroying it would cut the 502 as well).
    attempt.proxyRes.unpipe(res);
    attempt.proxyRes.resume();
  } else attempt?.proxyReq.destroy();
  // Whatever the upstream's answer put on res may be what failed: the 502 goes out without it.
  if (!res.headersSent) for (const name of res.getHeaderNames()) res.removeHeader(name);
  fail(state, req, res, unavailable());
}

/**
 * The last line of defence: anything node:http throws while this request is proxied (inside stream and socket
 * callbacks, where nothing would catch it and the process would end) ends this request only: 502 while
 * nothing was sent, a cut connection after. Logged and reported once per request.
 */
function fault(state: ProxyState, req: IncomingMessage, res: ServerResponse, error: unknown): void {
  const attempt = state.attempts.get(req);
  if (attempt?.faulted) return;
  if (attempt) attempt.faulted = true;
  const code = (error as ProxyError)?.code ?? 'error';
  state.options.logger.error({ reqId: (req as Request).id, code, method: req.method }, 'proxy fault: request ended');
  state.report('proxy fault', { code } as ProxyError);
  abandon(state, req, res, attempt);
}

/** An answer the browser cannot be given as it is (a transfer coding other than chunked, too big to translate): 502 instead. */
function unusable(state: ProxyState, req: IncomingMessage, res: ServerResponse, code: string): void {
  const attempt = state.attempts.get(req);
  if (attempt) attempt.faulted = true;
  state.options.logger.warn({ reqId: (req as Request).id, code, method: req.method }, 'upstream answer unusable');
  state.report('answer unusable', { code } as ProxyError);
  abandon(state, req, res, attempt);
}

/** Counts what goes out: a chunked body (no announced length) is stopped at the same limit as an announced one. */
function limitOutgoingBody(proxyReq: ClientRequest): void {
  let sent = 0;
  guardCalls(proxyReq, ['write', 'end'], {
    before: (method, args) => {
      if (method !== 'write') return true;
      const chunk = args[0] as Buffer | string;
      sent += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      if (sent <= MAX_API_BODY_BYTES) return true;
      proxyReq.destroy(Object.assign(new Error('request body over the /v2 limit'), { code: TOO_LARGE_CODE }));
      return false;
    },
    onThrow: (error) => proxyReq.destroy(Object.assign(error as ProxyError, { [FAULT]: true })),
  });
}

/** Time to the response head, not an idle timer: a slow upstream answer is cut at the limit. */
function limitTimeToAnswer(proxyReq: ClientRequest, timeoutMs: number): void {
  const timer = setTimeout(() => {
    proxyReq.destroy(Object.assign(new Error('upstream did not answer in time'), { code: TIMEOUT_CODE }));
  }, timeoutMs);
  proxyReq.once('response', () => clearTimeout(timer));
  proxyReq.once('close', () => clearTimeout(timer));
  // A protocol switch nobody asked for (the gateway never forwards Upgrade): without a listener Node drops
  // the connection and the request would hang until the timeout. It is a broken answer: 502 at once.
  proxyReq.once('upgrade', (_upgraded: IncomingMessage, socket: Socket) => {
    socket.destroy();
    clearTimeout(timer);
    proxyReq.emit('error', Object.assign(new Error('the upstream switched protocols unasked'), { code: 'UPSTREAM_UPGRADE' }));
  });
}

function onProxyReq(state: ProxyState): ForwardEvents['proxyReq'] {
  return (proxyReq, req, res) => {
    const attempt: Attempt = {
      proxyReq,
      bytesReadBefore: proxyReq.socket?.bytesRead ?? 0,
      answered: false,
      retried: state.attempts.get(req)?.retried ?? false,
      faulted: false,
    };
    state.attempts.set(req, attempt);
    proxyReq.once('response', (proxyRes: IncomingMessage) => {
      attempt.answered = true;
      attempt.proxyRes = proxyRes;
    });
    limitOutgoingBody(proxyReq);
    limitTimeToAnswer(proxyReq, state.options.timeoutMs);
    guardCalls(res, ['writeHead', 'write', 'end'], { onThrow: (error) => fault(state, req, res, error) });
    // A translated answer is read whole: it must come as plain JSON (the client's own encoding is done here).
    if (state.calls.get(req)?.answer) proxyReq.setHeader('accept-encoding', 'identity');
    const body = state.bodies.get(req);
    if (body) sendTranslatedBody(proxyReq, body);
  };
}

/** The answer's head made fit for the browser: hop-by-hop fields, our own connection handling, no caching by default. */
function cleanAnswerHead(proxyRes: IncomingMessage, req: IncomingMessage, res: ServerResponse): void {
  removeHopByHop(proxyRes.headers);
  for (const header of UPSTREAM_HEADERS_TO_DROP) delete proxyRes.headers[header];
  // The client connection is the gateway's own: kept alive as Node decided for this client (and closed
  // during shutdown), whatever the upstream said about its connection.
  const closing =
    String(res.getHeader('connection') ?? '').toLowerCase() === 'close' || !(res as ServerResponse & { shouldKeepAlive: boolean }).shouldKeepAlive;
  proxyRes.headers.connection = closing ? 'close' : 'keep-alive';
  // API answers carry health data: unless the upstream says otherwise, no cache may keep them.
  proxyRes.headers['cache-control'] ??= 'no-store';
  const clearSiteData = clearSiteDataHeader(req.method, (req as Request).path, proxyRes.statusCode);
  if (clearSiteData) proxyRes.headers['clear-site-data'] = clearSiteData;
}

function onProxyRes(state: ProxyState): ForwardEvents['proxyRes'] {
  return (proxyRes, req, res) => {
    const attempt = state.attempts.get(req);
    if (attempt) attempt.proxyRes = proxyRes;
    // Node decoded the chunked framing; any other transfer coding (gzip, chunked) would reach the browser as
    // undecodable bytes once the header is gone.
    const transferEncoding = proxyRes.headers['transfer-encoding'];
    if (transferEncoding !== undefined && transferEncoding.trim().toLowerCase() !== 'chunked') {
      unusable(state, req, res, 'UPSTREAM_TRANSFER_CODING');
      return;
    }
    cleanAnswerHead(proxyRes, req, res);
    const call = state.calls.get(req);
    state.compress(req, res, proxyRes.headers, call?.answer !== undefined);
    if (call?.answer) answerTranslated(proxyRes, req, res, call, () => unusable(state, req, res, 'ANSWER_TOO_LARGE_TO_TRANSLATE'));
  };
}

function onError(state: ProxyState, retryFor: (req: IncomingMessage) => Proxy): NonNullable<Events['error']> {
  return (error: ProxyError, req, res) => {
    const attempt = state.attempts.get(req);
    if (!('writeHead' in res)) return void res.destroy();
    if (isRetryable(req, res, error, attempt)) {
      attempt!.retried = true;
      state.options.logger.info(
        { reqId: (req as Request).id, code: error.code, method: req.method },
        'upstream closed a reused connection: retrying once on a fresh one',
      );
      void retryFor(req)(req, res);
      return;
    }
    if (error.code === TOO_LARGE_CODE) return fail(state, req, res, payloadTooLarge());
    if (error[FAULT]) return fault(state, req, res, error);
    const timedOut = error.code === TIMEOUT_CODE;
    state.options.logger.warn({ reqId: (req as Request).id, code: error.code, method: req.method }, timedOut ? 'upstream timed out' : 'upstream unreachable');
    state.report(timedOut ? 'timed out' : 'unreachable', error);
    fail(state, req, res, timedOut ? new HttpError(504, 'UPSTREAM_TIMEOUT', 'The upstream did not answer in time', { respond: writeRaw }) : unavailable());
  };
}

/**
 * /v2 -> upstream, same path (UPSTREAM_URL may add a prefix), bodies streamed both ways (nothing parses them
 * before this). Refused or reset: 502. No response head within PROXY_TIMEOUT_MS: 504. A chunked body that grows
 * over the /v2 limit: 413. Answers are compressed as they stream, when worth it (compression.ts).
 * With a field mapping, only the calls it touches are read and rewritten (proxy-translate.ts).
 */
export function apiProxy(options: ProxyOptions): RequestHandler {
  const state: ProxyState = {
    options,
    attempts: new WeakMap(),
    nexts: new WeakMap(),
    calls: new WeakMap(),
    bodies: new WeakMap(),
    report: reporter(options),
    compress: compressApiAnswers(),
  };
  // Our own pool: keep-alive with a known idle timeout (the default agent keeps idle sockets forever, so the
  // upstream's keep-alive timeout always closed them first). Node also honours a shorter `Keep-Alive: timeout=`.
  // At most 256 connections at once: a burst queues here instead of opening a socket per request on the upstream.
  const agent = new Agent({ keepAlive: true, timeout: options.idleTimeoutMs, scheduling: 'lifo', maxSockets: 256 });
  const events = { proxyReq: onProxyReq(state), proxyRes: onProxyRes(state), error: onError(state, retryFor) };
  const make = (selfHandleResponse: boolean, proxyAgent: Agent | false) =>
    createProxyMiddleware<IncomingMessage, ServerResponse>({
      target: options.upstreamUrl,
      pathFilter: (path) => isApiPath(path),
      changeOrigin: true,
      xfwd: false,
      // The default plugins would log full URLs (reset tokens) and answer errors as text; ours do neither.
      ejectPlugins: true,
      plugins: [debugProxyErrorsPlugin, proxyEventsPlugin],
      on: events,
      agent: proxyAgent,
      // Translated answers are written by answerTranslated, every other answer is piped by the proxy itself.
      selfHandleResponse,
    });
  const direct = directForwarder(options.upstreamUrl, agent, events);
  const proxy = make(false, agent);
  const translatingProxy = make(true, agent);
  // The retry takes a connection of its own (agent: false), never another pooled one that may be just as stale.
  const retryProxy = make(false, false);
  const translatingRetry = make(true, false);
  function retryFor(req: IncomingMessage): Proxy {
    return state.calls.get(req)?.answer ? translatingRetry : retryProxy;
  }

  return (req: Request, res: Response, next: NextFunction) => {
    if (!isApiPath(req.path)) return next();
    if (prepareUpstreamHeaders(req) === 'transfer-encoding') {
      return next(badRequest('UNSUPPORTED_TRANSFER_ENCODING', 'Only the chunked transfer coding is accepted'));
    }
    state.nexts.set(req, next);
    const call = options.translations?.find(req.method, req.path.slice('/v2'.length));
    if (!call) return void (direct && takesDirectPath(req) ? direct(req, res) : proxy(req, res, next));
    state.calls.set(req, call);
    translateRequest(req, call).then(
      (body) => {
        if (body) state.bodies.set(req, body);
        void (call.answer ? translatingProxy : proxy)(req, res, next);
      },
      (error: unknown) => (error === CLIENT_GONE ? undefined : next(error)),
    );
  };
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { type ErrorBody, HttpError } from '../errors.ts';
import { isApiPath } from './api-path.ts';

/** The built-in upstream's JSON limit; no /v2 call of the client sends more than a few kilobytes. */
export const MAX_API_BODY_BYTES = 1024 * 1024;

/**
 * After refusing a body, how much more of it the gateway reads and throws away before it closes the connection.
 * Closing a socket with unread bytes makes the kernel send a reset, and a client still writing its body then
 * sees ECONNRESET/EPIPE instead of the 413 that is already on its way. Reading on (bounded in bytes and time, so
 * a client cannot make the gateway swallow gigabytes) lets the answer arrive and the connection end cleanly.
 */
const DISCARD_BYTES = 16 * 1024 * 1024;
const DISCARD_MS = 10_000;

function discardBody(req: IncomingMessage, done: () => void): void {
  if (req.complete || req.readableEnded || req.destroyed) return done();
  let seen = 0;
  const finish = () => {
    clearTimeout(timer);
    req.off('data', onData).off('end', finish).off('close', finish).off('error', finish);
    done();
  };
  const onData = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > DISCARD_BYTES) finish();
  };
  const timer = setTimeout(finish, DISCARD_MS);
  // A body that was being piped to the upstream: unpipe first, or the pipe would pause it again.
  req.unpipe();
  req.on('data', onData).once('end', finish).once('close', finish).once('error', finish);
  req.resume();
}

/**
 * The 413 JSON answer, written completely at once (the client can read it while it is still sending), then the
 * rest of the body is discarded and only after that is the response ended and the connection closed.
 */
function answerAndDrain(req: IncomingMessage, res: ServerResponse, error: ErrorBody): void {
  const body = JSON.stringify(error);
  // The rest of the body is not read as a request, so the connection cannot carry another one.
  res.setHeader('Connection', 'close');
  res.writeHead(413, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.write(body);
  discardBody(req, () => res.end());
}

/** A /v2 body over the limit, for the error handler: answered while the client still sends, then drained. */
export const payloadTooLarge = () =>
  new HttpError(413, 'PAYLOAD_TOO_LARGE', `Request bodies under /v2 are limited to ${MAX_API_BODY_BYTES} bytes`, { respond: answerAndDrain });

/**
 * A /v2 request that announces a body over the limit is answered 413 here, before a byte of it is streamed on:
 * a client must not be able to push megabytes through the gateway into whatever upstream is configured.
 * Chunked bodies have no announced length; the proxy counts them as they pass and stops at the same limit.
 */
export function limitApiBodies(req: Request, _res: Response, next: NextFunction): void {
  const length = Number(req.headers['content-length'] ?? 0);
  next(isApiPath(req.path) && length > MAX_API_BODY_BYTES ? payloadTooLarge() : undefined);
}

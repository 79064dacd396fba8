import type { NextFunction, Request, Response } from 'express';
import { sendError } from '../errors.ts';
import { isApiPath } from './xsrf.ts';

/** The built-in upstream's JSON limit; no /v2 call of the client sends more than a few kilobytes. */
export const MAX_API_BODY_BYTES = 1024 * 1024;

/**
 * A /v2 request that announces a body over the limit is answered 413 here, before a byte of it is streamed on:
 * a client must not be able to push megabytes through the gateway into whatever upstream is configured.
 * Chunked bodies without a length are left to the upstream's own limit.
 */
export function limitApiBodies(req: Request, res: Response, next: NextFunction): void {
  const length = Number(req.headers['content-length'] ?? 0);
  if (isApiPath(req.path) && length > MAX_API_BODY_BYTES) {
    // The body stays unread, so the connection cannot carry another request.
    res.setHeader('Connection', 'close');
    sendError(res, 413, 'PAYLOAD_TOO_LARGE', `Request bodies under /v2 are limited to ${MAX_API_BODY_BYTES} bytes`);
    return;
  }
  next();
}

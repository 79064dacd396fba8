import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { badRequest, HttpError } from '../errors.ts';

/**
 * The request line as the rest of the gateway may assume it: HTTP/1.0 or 1.1, a known method, an origin-form target
 * ("/path?query") without dot segments. Node's parser already refuses most garbage with 400; what it lets
 * through is refused here with the JSON error, before any other middleware sees the request.
 *
 * - Absolute-form ("GET http://host/path") is legal HTTP/1.1: it is rewritten to origin-form and its
 *   authority is kept for the Host check (RFC 9112 3.2.2: it takes the place of the Host header).
 * - "*" and authority-form ("host:443") name no resource here (CONNECT has its own 405 in server/index.ts).
 * - Dot segments, also percent-encoded or hidden behind an encoded slash ("..%2f"), are refused: browsers
 *   resolve them before sending, and an upstream that resolves them differently from the gateway would
 *   reach paths outside /v2 that the gateway never meant to forward.
 */

const targetAuthority = new WeakMap<IncomingMessage, string>();

/** The authority of an absolute-form target, once checkRequestLine rewrote it (undefined for origin-form). */
export const absoluteFormAuthority = (req: IncomingMessage): string | undefined => targetAuthority.get(req);

const ABSOLUTE_FORM = /^https?:\/\/([^/?#]*)([^#]*)/i;

export function hasDotSegment(path: string): boolean {
  const decoded = path.replace(/%2e/gi, '.').replace(/%2f/gi, '/').replace(/%5c/gi, '\\');
  return decoded.split(/[/\\]/).some((segment) => segment === '.' || segment === '..');
}

/**
 * The methods anything behind the gateway answers. Others are refused here: TRACE would echo a request (with its
 * cookies) back on an upstream that allows it, and a method the XSRF check does not know (PROPFIND, QUERY, ...)
 * would reach an upstream unchecked.
 */
export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const ALLOWED_METHODS = new Set(METHODS);

export function checkRequestLine(req: Request, res: Response, next: NextFunction): void {
  if (req.httpVersionMajor !== 1 || (req.httpVersionMinor !== 0 && req.httpVersionMinor !== 1)) {
    return next(badRequest('UNSUPPORTED_HTTP_VERSION', 'Only HTTP/1.0 and HTTP/1.1 are supported'));
  }
  // An Upgrade the gateway never grants (websocket, h2c): Node's parser treats everything after this head as the
  // new protocol and reads no further request from the connection (without an 'upgrade' listener it still
  // emits this one as a plain request, req.upgrade false), so the answer has to end the connection.
  if (req.headers.upgrade !== undefined && /(^|,)\s*upgrade\s*(,|$)/i.test(req.headers.connection ?? '')) res.setHeader('Connection', 'close');
  let target = req.url;
  const absolute = ABSOLUTE_FORM.exec(target);
  if (absolute) {
    const path = absolute[2] === '' ? '/' : absolute[2].startsWith('?') ? `/${absolute[2]}` : absolute[2];
    targetAuthority.set(req, absolute[1]);
    req.url = path;
    req.originalUrl = path;
    target = path;
  }
  if (!target.startsWith('/')) {
    return next(badRequest('INVALID_REQUEST_TARGET', 'The request target must be a path starting with /'));
  }
  const path = target.split('?')[0];
  if (hasDotSegment(path)) {
    return next(badRequest('INVALID_REQUEST_TARGET', 'Paths with . or .. segments are not accepted'));
  }
  next();
}

/** Registered after the Host check (a foreign host is a 400 whatever the method). */
export function checkMethod(req: Request, _res: Response, next: NextFunction): void {
  if (ALLOWED_METHODS.has(req.method)) return next();
  next(new HttpError(405, 'METHOD_NOT_ALLOWED', `${METHODS.join(', ')} only`, { headers: { Allow: METHODS.join(', ') } }));
}

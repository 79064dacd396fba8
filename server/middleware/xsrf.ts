import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { doubleCsrf } from 'csrf-csrf';
import { forbidden } from '../errors.ts';
import { isApiPath } from './api-path.ts';

/**
 * Cross-site request forgery defence for the /v2 API (signed double-submit cookie, csrf-csrf).
 *
 * The page gets a readable XSRF-TOKEN cookie; the client copies it into the X-XSRF-TOKEN header of every
 * mutating call. Another site can make the browser send our cookies but cannot read them, so it cannot
 * produce the header. The token is an HMAC (XSRF_SECRET) over a random per-browser id kept in a second,
 * httpOnly cookie (XSRF_SID_COOKIE): a token planted by a sibling subdomain (cookie tossing) does not match
 * that id. Everything lives in the browser's cookies and the shared secret, so any replica that has the
 * same XSRF_SECRET validates tokens issued by any other.
 */
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
/** The gateway's own secret cookie: httpOnly, never forwarded to the upstream. */
export const XSRF_SID_COOKIE = 'xsrf-sid';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const SID_PATTERN = /^[0-9a-f]{32}$/;

export function createXsrf(secret: string) {
  const csrf = doubleCsrf({
    getSecret: () => secret,
    getSessionIdentifier: (req) => String(req.cookies?.[XSRF_SID_COOKIE] ?? ''),
    cookieName: XSRF_COOKIE,
    cookieOptions: { sameSite: 'strict', path: '/', httpOnly: false, secure: false },
    getCsrfTokenFromRequest: (req) => {
      const value = req.headers[XSRF_HEADER];
      return typeof value === 'string' ? value : undefined;
    },
  });

  const cookieBase = (req: Request) => ({ sameSite: 'strict' as const, path: '/', secure: req.secure });

  /** Sets (or keeps, when still valid) the XSRF-TOKEN cookie; makes the per-browser id first when missing. */
  function issue(req: Request, res: Response): void {
    let overwrite = false;
    req.cookies ??= {};
    let sid = req.cookies[XSRF_SID_COOKIE];
    if (typeof sid !== 'string' || !SID_PATTERN.test(sid)) {
      // 122 random bits from Node's pool of random bytes (one OpenSSL call per 128 ids): for small GETs of a client
      // without cookies, OpenSSL's random calls were 5% of the gateway's work, half of them this one.
      sid = randomUUID().replaceAll('-', '');
      req.cookies[XSRF_SID_COOKIE] = sid;
      res.cookie(XSRF_SID_COOKIE, sid, { ...cookieBase(req), httpOnly: true });
      overwrite = true;
    }
    // Readable by scripts on purpose: the client must copy it into the header (that is the whole scheme).
    csrf.generateCsrfToken(req, res, { overwrite, cookieOptions: { ...cookieBase(req), httpOnly: false } });
  }

  /**
   * Mutating /v2 calls: refused with 403 (never forwarded) when the browser says the request comes from another
   * site, or when the header does not match a valid cookie. GET/HEAD/OPTIONS stay free and set no cookies: the pair
   * comes with every page, and with the 403 of a write that lacked it, which the client then sends once more
   * (client/data/http.ts). Decision: reads used to issue the pair to a client without it; a browser always has it
   * from its page, and a client that keeps no cookies paid for two it dropped on every call (an HMAC, random bytes
   * and two Set-Cookie headers: a seventh of the gateway's work on a small GET).
   */
  const protect: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    if (!isApiPath(req.path) || !MUTATING.has(req.method)) return next();
    if (req.headers['sec-fetch-site'] === 'cross-site') return next(forbidden('XSRF_CROSS_SITE', 'Cross-site requests are not allowed'));
    if (!csrf.validateRequest(req)) {
      // A valid cookie is kept, an invalid one (e.g. after a secret rotation) replaced, so the real client
      // recovers on retry; a forging site still cannot read it.
      issue(req, res);
      return next(forbidden('XSRF_TOKEN_INVALID', 'Missing or invalid X-XSRF-TOKEN header'));
    }
    next();
  };

  return { issue, protect };
}

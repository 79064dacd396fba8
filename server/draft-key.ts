import { hkdf } from 'node:crypto';
import { promisify } from 'node:util';
import { type NextFunction, type Request, type Response, Router } from 'express';
import { HttpError } from './errors.ts';

const deriveKey = promisify(hkdf);

export interface DraftKeyOptions {
  upstreamUrl: string;
  /** XSRF_SECRET: the keys of drafts stay the same across restarts and replicas exactly as long as it does. */
  secret: string;
  /** Longest wait for the upstream's answer to /v2/auth/me (PROXY_TIMEOUT_MS). */
  timeoutMs: number;
}

const unauthorized = () => new HttpError(401, 'UNAUTHORIZED', 'A valid login token is required');
const unavailable = () => new HttpError(502, 'UPSTREAM_UNAVAILABLE', 'The upstream is not reachable');
const timedOut = () => new HttpError(504, 'GATEWAY_UPSTREAM_TIMEOUT', 'The upstream did not answer in time');

/**
 * GET /session/draft-key (docs/drafts-and-sessions.md): the key the client seals a coach's unsaved drafts with.
 *
 * It is handed out only for a login token the upstream accepts right now (asked with GET /v2/auth/me and the
 * caller's own Authorization header), so once a session has ended (logout, idle, expired, revoked) the drafts it
 * left in the browser cannot be opened: the browser keeps only ciphertext, never the key. The key is derived from
 * the gateway's secret and the coach's id, not stored anywhere: the same coach gets the same key in the next
 * session (an idle logout's drafts open again), another coach a different one. Neither token nor key is logged.
 * Another site cannot ask for it in a coach's name: the token travels only in the Authorization header, which a
 * cross-site page cannot set without a CORS grant the gateway never gives (cookies alone get a 401).
 */
export function draftKeyRoute(options: DraftKeyOptions): Router {
  const router = Router();
  const meUrl = new URL(`${new URL(options.upstreamUrl).pathname.replace(/\/$/, '')}/v2/auth/me`, options.upstreamUrl);

  router.get('/session/draft-key', async (req: Request, res: Response, next: NextFunction) => {
    // Whatever happens, nothing along the way may keep this answer (it is a key) or a refusal of it.
    res.setHeader('Cache-Control', 'no-store');
    const authorization = req.headers.authorization;
    if (!authorization || !/^Bearer \S+$/i.test(authorization)) return next(unauthorized());
    try {
      const coachId = await askWhoItIs(meUrl, authorization, req.id, options.timeoutMs);
      const key = await deriveKey('sha256', options.secret, coachId, 'draft-key', 32);
      res.json({ key: Buffer.from(key).toString('base64url') });
    } catch (error) {
      next(error);
    }
  });
  return router;
}

/** The coach's id for this Authorization header, as the upstream answers /v2/auth/me; a refusal is a 401. */
async function askWhoItIs(meUrl: URL, authorization: string, requestId: unknown, timeoutMs: number): Promise<string> {
  let answer: globalThis.Response;
  try {
    const headers: Record<string, string> = { Accept: 'application/json', Authorization: authorization };
    if (typeof requestId === 'string') headers['X-Request-Id'] = requestId;
    answer = await fetch(meUrl, { headers, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
  } catch (error) {
    throw (error as Error)?.name === 'TimeoutError' ? timedOut() : unavailable();
  }
  if (answer.status >= 500) {
    await answer.body?.cancel();
    throw unavailable();
  }
  if (!answer.ok) {
    await answer.body?.cancel();
    throw unauthorized();
  }
  const me = (await answer.json().catch(() => null)) as { id?: unknown } | null;
  const id = me?.id;
  // An answer without an id names nobody: no key rather than one shared by everyone the upstream answers so.
  if ((typeof id !== 'string' || id === '') && typeof id !== 'number') throw unavailable();
  return String(id);
}

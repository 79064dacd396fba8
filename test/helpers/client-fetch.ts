import type { Me } from '../../contract/schemas/auth.ts';
import { vi } from 'vitest';

/** One recorded fetch call, with the parts tests assert on. */
export interface RecordedCall {
  method: string;
  url: string;
  path: string;
  search: string;
  headers: Record<string, string>;
  body: unknown;
  credentials: RequestCredentials | undefined;
}

type Responder = (call: RecordedCall) => Response | Promise<Response>;

export function json(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { 'Content-Type': 'application/json', ...(init.headers as Record<string, string> | undefined) },
  });
}

export function apiError(status: number, code = 'ERROR', message = 'failed'): Response {
  return json({ error: { statusCode: status, name: 'Error', code, message } }, { status });
}

export const noContent = () => new Response(null, { status: 204 });

/**
 * The gateway's GET /session/draft-key as a test meets it: 32 bytes that follow the coach, as the gateway's do. Like
 * the gateway it asks the test's own `GET /auth/me` route who the token belongs to (401 when that refuses); without
 * such a route every token is a coach of its own. 401 without a bearer token.
 */
async function draftKeyAnswer(call: RecordedCall, me: Responder | Response | undefined): Promise<Response> {
  if (!call.headers.authorization?.startsWith('Bearer ')) return apiError(401, 'UNAUTHORIZED');
  let coach = call.headers.authorization;
  if (me) {
    const answer = typeof me === 'function' ? await me({ ...call, path: '/v2/auth/me' }) : me.clone();
    if (!answer.ok) return apiError(401, 'UNAUTHORIZED');
    coach = String(((await answer.json()) as { id: unknown }).id);
  }
  const key = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`draft-key:${coach}`)));
  return json({
    key: btoa(String.fromCharCode(...key))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, ''),
  });
}

/**
 * Replace fetch with a router: routes are "METHOD /path" (path under /v2, without query) -> responder.
 * Unrouted calls answer 404, except the draft key (draftKeyAnswer), which a route may replace. Returns the list of
 * calls made.
 */
export function mockFetch(routes: Record<string, Responder | Response>) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries((init.headers ?? {}) as Record<string, string>)) headers[key.toLowerCase()] = value;
    const call: RecordedCall = {
      method: init.method ?? 'GET',
      url: String(input),
      path: url.pathname,
      search: url.search,
      headers,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      credentials: init.credentials,
    };
    calls.push(call);
    const route = routes[`${call.method} ${url.pathname.replace(/^\/v2/, '')}`];
    if (!route && call.method === 'GET' && url.pathname === '/session/draft-key') return draftKeyAnswer(call, routes['GET /auth/me']);
    if (!route) return apiError(404, 'NOT_FOUND', 'no route in test');
    return typeof route === 'function' ? route(call) : route.clone();
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

/** The one builder of a complete <Me> for tests; override the flags (or, with ANNA_BERG, the person) per case. */
export function buildMe(overrides: Partial<Me> = {}): Me {
  return {
    id: 'coach-1',
    email: 'coach@example.org',
    firstName: 'Clara',
    lastName: 'Coach',
    isUserLocked: false,
    isAdmin: false,
    isSuperAdmin: false,
    isHealthManager: false,
    emailVerified: true,
    language: 'de',
    ...overrides,
  };
}

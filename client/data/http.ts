import * as v from 'valibot';
import { ApiErrorBodySchema } from '../../contract/schemas/error.ts';
import { issueFields, readingSchema } from './reading.ts';
import { getToken } from '../lib/token.ts';
import { reportError } from '../lib/error-reporting.ts';
import { fetchThrough } from './request-cache.ts';

// The token helpers live in lib/token.ts (the first screen needs them without this module); re-exported here.
export { TOKEN_KEY, getToken, setToken, clearToken } from '../lib/token.ts';

/** Every failed call, whatever went wrong: HTTP status (0 = network), machine code and message. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: { path: string; message: string }[];
  /** 412: the record as the server has it now (`error.current`), unchecked; parse it with the record's schema. */
  current: unknown = undefined;
  /** 412: the ETag of that current record, when the server sent one. */
  etag: string | null = null;
  constructor(status: number, code: string, message: string, details: { path: string; message: string }[] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/**
 * An answer the client cannot use: not JSON, or without a field a screen needs (code INVALID_RESPONSE). The
 * message names the call and the fields, never their values (they may be health data).
 */
export class InvalidAnswerError extends ApiError {
  /** Field paths that did not fit, e.g. ["[].id", "email"]. */
  readonly fields: string[];
  /**
   * True when the call was a write the server accepted (2xx) and even reading the record again gave nothing usable:
   * the change is stored, so the screen must not say it was not saved (errorText words it so).
   */
  written = false;
  constructor(status: number, call: string, fields: string[]) {
    super(status, 'INVALID_RESPONSE', `Unusable answer to ${call}: ${fields.length ? `field ${fields.join(', ')} missing or of the wrong type` : 'not JSON'}`);
    this.name = 'InvalidAnswerError';
    this.fields = fields;
  }
}

/** The call without ids (path segments with a digit), so a report names the kind of call but no record. */
export function callName(method: string, path: string): string {
  return `${method} /v2${path
    .split('?')[0]
    .split('/')
    .map((part) => (/\d/.test(part) ? '{id}' : part))
    .join('/')}`;
}

const reported = new Set<string>();
/**
 * Each kind of unusable answer goes to error reporting once per page load: the operator needs to hear that
 * their API and the client disagree, not once for every retry or every screen that asks again.
 */
function reportInvalidAnswer(error: InvalidAnswerError, call: string): void {
  const key = `${call} ${error.fields.join(',')}`;
  if (reported.has(key)) return;
  reported.add(key);
  reportError(error);
}

type Query = Record<string, unknown>;
export interface RequestOptions<S extends v.GenericSchema | undefined> {
  query?: Query;
  body?: unknown;
  /** Schema the answer is parsed with; omit for calls answered with 204 or ignored. */
  schema?: S;
  signal?: AbortSignal;
  /** Login must not end the session on 401 (wrong credentials are not an expired session). */
  skipUnauthorizedHandler?: boolean;
  /** Logout: still sent after abortSessionRequests() has stopped every other call with this token. */
  endsSession?: boolean;
  /** If-Match: the version of the record the write is based on (a 412 answers when it changed since). */
  ifMatch?: string | null;
  /**
   * A write whose 2xx answer does not fit `schema` is still stored: the record is read again with this call and
   * that is the answer. PUT and PATCH read their own path (GET) unless told otherwise; POST only when given one (it
   * gets the answer's `id` when there is one); false: never.
   */
  reread?: false | ((answer: { id?: string }) => Promise<{ data: unknown; etag?: string | null }>);
}
export interface ApiResult<T> {
  data: T;
  /** X-Total-Count of list answers (matches before limit/skip), or null. */
  total: number | null;
  /** The answer's ETag (the version of the one record it holds); null or absent when it sent none. */
  etag?: string | null;
}

/**
 * Told which token the refused request carried, so a 401 for an old token cannot end a newer session, and the
 * answer's error.code (SESSION_IDLE and SESSION_EXPIRED say why the session is over).
 */
type UnauthorizedHandler = (sentToken: string | null, code: string) => void;
let unauthorizedHandler: UnauthorizedHandler | null = null;
/** The session registers what a 401 means (log out); kept as a hook so api/ does not import state/. */
export function onUnauthorized(handler: UnauthorizedHandler | null): void {
  unauthorizedHandler = handler;
}

// Every request belongs to the session of the token it carries. Ending that session (logout) aborts its
// requests in flight and refuses to send new ones with the same token, so nothing reaches the server with a
// token that is being revoked, and no screen reports the 401s such late calls would get as errors.
let session = { token: getToken(), controller: new AbortController() };
function sessionOf(token: string | null): AbortController {
  if (session.token !== token) session = { token, controller: new AbortController() };
  return session.controller;
}

/**
 * Abort the requests of the current token's session, and keep later ones with that token from being sent.
 * Without a stored token there is no session to end: calls such as login keep working, and an ended session
 * is forgotten (its token is gone, so nothing can carry it any more).
 */
export function abortSessionRequests(): void {
  const token = getToken();
  // Another tab may have removed the token already: the calls this tab sent with it are still to stop.
  if (session.token !== null && session.token !== token) session.controller.abort();
  if (token === null) sessionOf(null);
  else sessionOf(token).abort();
}

/** The rejection of a call whose session has ended: an AbortError, which callers ignore like any abort. */
function sessionEnded(): DOMException {
  return new DOMException('The session this request belonged to has ended', 'AbortError');
}

/** True for aborted calls (the caller's own signal, or an ended session): nothing to report to anyone. */
export function isAbortError(error: unknown): boolean {
  return (error as Error | null)?.name === 'AbortError';
}

/** One signal that aborts when either does; `release` removes the listeners once the call is done. */
function eitherSignal(a: AbortSignal | undefined, b: AbortSignal | null): { signal?: AbortSignal; release: () => void } {
  if (!a || !b) return { signal: a ?? b ?? undefined, release: () => undefined };
  const both = new AbortController();
  const abort = () => both.abort();
  if (a.aborted || b.aborted) abort();
  a.addEventListener('abort', abort);
  b.addEventListener('abort', abort);
  return {
    signal: both.signal,
    release: () => {
      a.removeEventListener('abort', abort);
      b.removeEventListener('abort', abort);
    },
  };
}

/** Query values are each JSON-encoded (docs/contract.md#lists): {filter: {limit: 20}} -> filter={"limit":20}. */
export function encodeQuery(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    params.append(key, JSON.stringify(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [k, ...rest] = part.trim().split('=');
    if (k === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The gateway's 403 for a write without a valid XSRF pair (server/middleware/xsrf.ts), which reached nothing
 * behind it: the new XSRF-TOKEN that came with it, or null when there is none to try.
 */
async function refusedForXsrf(method: string, response: Response, sent: string | undefined): Promise<string | null> {
  if (response.status !== 403 || !MUTATING.has(method)) return null;
  if ((await toApiError(response.clone())).code !== 'XSRF_TOKEN_INVALID') return null;
  const fresh = readCookie('XSRF-TOKEN');
  return fresh && fresh !== sent ? fresh : null;
}

/** The one fetch wrapper: bearer token, XSRF header on mutating calls, credentials, schema-checked answers. */
export async function request<S extends v.GenericSchema | undefined = undefined>(
  method: string,
  path: string,
  options: RequestOptions<S> = {},
): Promise<ApiResult<S extends v.GenericSchema ? v.InferOutput<S> : undefined>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = getToken();
  const own = options.endsSession ? null : sessionOf(token).signal;
  if (own?.aborted) throw sessionEnded(); // never send a token whose session has ended
  if (token) headers.Authorization = `Bearer ${token}`;
  if (MUTATING.has(method)) {
    const xsrf = readCookie('XSRF-TOKEN');
    if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;
    if (options.ifMatch) headers['If-Match'] = options.ifMatch;
  }
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  const { signal, release } = eitherSignal(options.signal, own);
  try {
    // Shared GETs, kept reference data, connection state: data/request-cache.ts.
    const send = () => fetchThrough(`/v2${path}${encodeQuery(options.query)}`, { method, headers, body, credentials: 'include', signal });
    response = await send();
    const fresh = await refusedForXsrf(method, response, headers['X-XSRF-TOKEN']);
    if (fresh) {
      // The gateway refused the write before forwarding anything and set a fresh cookie pair with its answer
      // (the browser's cookies were cleared, or the gateway's XSRF_SECRET changed): sent once more with it.
      headers['X-XSRF-TOKEN'] = fresh;
      response = await send();
    }
  } catch (cause) {
    if (own?.aborted) throw sessionEnded();
    if (isAbortError(cause)) throw cause;
    throw new ApiError(0, 'NETWORK_ERROR', 'Network request failed');
  } finally {
    release();
  }
  // An answer that arrives after its session ended belongs to nobody any more (a late 200 must not fill the
  // next coach's screen; a late 401 is the revoked token, not a failure anyone has to hear about).
  if (own?.aborted) throw sessionEnded();
  if (response.status === 401 && token !== null && token !== getToken()) throw sessionEnded();
  if (!response.ok) {
    const error = await toApiError(response);
    if (response.status === 401 && !options.skipUnauthorizedHandler) unauthorizedHandler?.(token, error.code);
    throw error;
  }
  const totalHeader = response.headers.get('X-Total-Count');
  const total = totalHeader === null || totalHeader.trim() === '' ? null : Number(totalHeader);
  const known = Number.isFinite(total) ? total : null;
  const etag = response.headers.get('ETag');
  if (!options.schema) return { data: undefined as never, total: known, etag };
  const call = callName(method, path);
  let json: unknown;
  let fields: string[] = [];
  let parsed: v.SafeParseResult<v.GenericSchema> | null = null;
  let text: string;
  try {
    text = await response.text();
  } catch (cause) {
    // The answer broke off (the line dropped mid-body): nothing says the write was kept, so it is no answer at all.
    if (own?.aborted) throw sessionEnded();
    if (isAbortError(cause)) throw cause;
    throw new ApiError(0, 'NETWORK_ERROR', 'Network request failed');
  }
  try {
    json = JSON.parse(text);
    // Read leniently (reading.ts): only what a screen needs must be there; ids become strings here.
    parsed = v.safeParse(readingSchema(options.schema), json);
    if (parsed.success) return { data: parsed.output as never, total: known, etag };
    fields = issueFields(parsed.issues);
  } catch {
    // Not JSON: fields stay empty, the report says so.
  }
  const error = new InvalidAnswerError(response.status, call, fields);
  reportInvalidAnswer(error, call);
  if (!MUTATING.has(method)) throw error;
  // A 2xx to a write means it is stored, whatever the body says: read the record again and show that.
  const reread = rereadOf(method, path, options);
  if (!reread) {
    error.written = true;
    throw error;
  }
  try {
    const again = await reread({ id: idOf(json) });
    return { data: again.data as never, total: known, etag: again.etag ?? null };
  } catch (failure) {
    if (failure instanceof InvalidAnswerError) failure.written = true;
    if (failure instanceof InvalidAnswerError || !(failure instanceof ApiError)) throw failure;
    error.written = true;
    throw error;
  }
}

/** How a write's record is read again when its 2xx answer does not fit (RequestOptions.reread). */
function rereadOf(method: string, path: string, options: RequestOptions<v.GenericSchema | undefined>): RequestOptions<undefined>['reread'] {
  if (options.reread !== undefined) return options.reread;
  if (method !== 'PUT' && method !== 'PATCH') return false;
  return () => request('GET', path, { schema: options.schema, signal: options.signal, reread: false });
}

/** The `id` of an answer that has one (a created record), as text. */
function idOf(json: unknown): string | undefined {
  const id = (json as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/**
 * A singular sub-resource that does not exist yet (a patient without an evaluation form, a primary coach or an
 * unused code): an API answers 404 (LoopBack's hasOne without a row). That is "none yet", not a failure: the call
 * gives `none` and the screen shows its empty state, from which the coach can create it.
 */
export function noneOn404<T, N>(call: Promise<ApiResult<T>>, none: N): Promise<ApiResult<T | N>> {
  return call.catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404 && !(error instanceof InvalidAnswerError)) return { data: none, total: null, etag: null };
    throw error;
  });
}

async function toApiError(response: Response): Promise<ApiError> {
  try {
    const body: unknown = await response.json();
    // Read leniently too: a LoopBack error has no `code`, and its `details` are not a list.
    const parsed = v.safeParse(readingSchema(ApiErrorBodySchema), body);
    if (parsed.success) {
      const e = parsed.output.error;
      const error = new ApiError(response.status, e.code || `HTTP_${response.status}`, e.message || response.statusText || 'Request failed', e.details ?? []);
      if (response.status === 412) {
        // Kept raw here; the caller knows the record's schema (client/data/versions.ts).
        error.current = (body as { error: { current?: unknown } }).error.current;
        error.etag = response.headers.get('ETag');
      }
      return error;
    }
  } catch {
    // Not JSON (a proxy in between, an HTML error page): fall through to a generic error.
  }
  return new ApiError(response.status, `HTTP_${response.status}`, response.statusText || 'Request failed');
}

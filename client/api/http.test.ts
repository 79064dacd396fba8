import { afterEach, describe, expect, test, vi } from 'vitest';
import * as v from 'valibot';
import { ApiError, InvalidAnswerError, abortSessionRequests, clearToken, encodeQuery, isAbortError, onUnauthorized, request, setToken } from './http.ts';
import { apiError, json, mockFetch } from '../../test/helpers/client-fetch.ts';
import { reportError } from '../lib/error-reporting.ts';

vi.mock('../lib/error-reporting.ts', () => ({ reportError: vi.fn() }));

afterEach(() => {
  vi.unstubAllGlobals();
  onUnauthorized(null);
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

const ItemSchema = v.object({ id: v.string() });

describe('request headers', () => {
  test('sends the stored access token as a bearer authorization header', async () => {
    setToken('tok-123');
    const { calls } = mockFetch({ 'GET /things': json([]) });
    await request('GET', '/things');
    expect(calls[0].headers.authorization).toBe('Bearer tok-123');
  });

  test('sends no authorization header when no token is stored', async () => {
    const { calls } = mockFetch({ 'GET /things': json([]) });
    await request('GET', '/things');
    expect(calls[0].headers.authorization).toBeUndefined();
  });

  test.each(['POST', 'PUT', 'PATCH', 'DELETE'])('sends X-XSRF-TOKEN from the XSRF-TOKEN cookie on %s', async (method) => {
    document.cookie = 'XSRF-TOKEN=xsrf-value; path=/';
    const { calls } = mockFetch({ [`${method} /things/1`]: new Response(null, { status: 204 }) });
    await request(method, '/things/1', { body: {} });
    expect(calls[0].headers['x-xsrf-token']).toBe('xsrf-value');
  });

  test('does not send X-XSRF-TOKEN on GET', async () => {
    document.cookie = 'XSRF-TOKEN=xsrf-value; path=/';
    const { calls } = mockFetch({ 'GET /things': json([]) });
    await request('GET', '/things');
    expect(calls[0].headers['x-xsrf-token']).toBeUndefined();
  });

  test('includes credentials and calls the same-origin /v2 base path', async () => {
    const { calls } = mockFetch({ 'GET /things': json([]) });
    await request('GET', '/things');
    expect(calls[0].credentials).toBe('include');
    expect(calls[0].url.startsWith('/v2/things')).toBe(true);
  });

  test('sends a body as JSON', async () => {
    const { calls } = mockFetch({ 'POST /things': json({ id: '1' }) });
    await request('POST', '/things', { body: { name: 'x' }, schema: ItemSchema });
    expect(calls[0].headers['content-type']).toBe('application/json');
    expect(calls[0].body).toEqual({ name: 'x' });
  });
});

describe('query encoding', () => {
  test('JSON-encodes each query value', () => {
    expect(encodeQuery({ filter: { limit: 20 } })).toBe('?filter=%7B%22limit%22%3A20%7D');
    expect(encodeQuery({ q: 'abc' })).toBe('?q=%22abc%22');
    expect(encodeQuery({ n: 3, flag: true })).toBe('?n=3&flag=true');
  });

  test('leaves out undefined values and an empty query', () => {
    expect(encodeQuery({ a: undefined })).toBe('');
    expect(encodeQuery(undefined)).toBe('');
  });

  test('puts the encoded query on the request URL', async () => {
    const { calls } = mockFetch({ 'GET /things': json([]) });
    await request('GET', '/things', { query: { filter: { where: { name: 'a b' } } } });
    const sent = new URLSearchParams(calls[0].search);
    expect(JSON.parse(sent.get('filter')!)).toEqual({ where: { name: 'a b' } });
  });
});

describe('answers', () => {
  test('parses the answer with its schema and reads X-Total-Count', async () => {
    mockFetch({ 'GET /things': json([{ id: 'a' }], { headers: { 'X-Total-Count': '42' } }) });
    const result = await request('GET', '/things', { schema: v.array(ItemSchema) });
    expect(result).toEqual({ data: [{ id: 'a' }], total: 42, etag: null });
  });

  test('gives total null when the answer has no X-Total-Count', async () => {
    mockFetch({ 'GET /things/a': json({ id: 'a' }) });
    const result = await request('GET', '/things/a', { schema: ItemSchema });
    expect(result.total).toBeNull();
  });

  test('turns an answer without a field the client needs into an ApiError', async () => {
    mockFetch({ 'GET /things/a': json({ name: 'no id' }) });
    const error = await request('GET', '/things/a', { schema: ItemSchema }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('INVALID_RESPONSE');
  });

  test('reads ids sent as numbers as strings', async () => {
    mockFetch({ 'GET /things/7': json({ id: 7, extra: 'ignored' }) });
    expect((await request('GET', '/things/7', { schema: ItemSchema })).data).toEqual({ id: '7' });
  });

  test('reports an unusable answer to error reporting once, however often it arrives', async () => {
    vi.mocked(reportError).mockClear();
    mockFetch({ 'GET /once': json([{ name: 'x' }]), 'GET /other': json({}) });
    for (let i = 0; i < 3; i++) await request('GET', '/once', { schema: v.array(ItemSchema) }).catch(() => undefined);
    expect(reportError).toHaveBeenCalledOnce();
    await request('GET', '/other', { schema: ItemSchema }).catch(() => undefined);
    expect(reportError).toHaveBeenCalledTimes(2);
  });

  test('names the call without its ids and the field in the report, never a value of the answer', async () => {
    vi.mocked(reportError).mockClear();
    mockFetch({ 'GET /patients/p-4711/coaches': json([{ email: 'erika.mustermann@example.org' }]) });
    const error = (await request('GET', '/patients/p-4711/coaches', { schema: v.array(ItemSchema) }).catch((e: unknown) => e)) as InvalidAnswerError;
    expect(error).toBeInstanceOf(InvalidAnswerError);
    expect(error.message).toBe('Unusable answer to GET /v2/patients/{id}/coaches: field [].id missing or of the wrong type');
    expect(error.fields).toEqual(['[].id']);
    expect(vi.mocked(reportError).mock.calls[0][0]).toBe(error);
  });

  test('treats an answer that is not JSON as unusable and reports it', async () => {
    vi.mocked(reportError).mockClear();
    mockFetch({ 'GET /html': new Response('<html>login</html>', { status: 200 }) });
    const error = (await request('GET', '/html', { schema: ItemSchema }).catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('INVALID_RESPONSE');
    expect(reportError).toHaveBeenCalledOnce();
  });

  test('reads a LoopBack error body without code: the code is HTTP_<status>, the message is kept', async () => {
    mockFetch({
      'POST /things': json(
        { error: { statusCode: 422, name: 'ValidationError', message: 'The instance is not valid.', details: { codes: { name: ['presence'] } } } },
        { status: 422 },
      ),
    });
    const error = (await request('POST', '/things', { body: {} }).catch((e: unknown) => e)) as ApiError;
    expect([error.status, error.code, error.message, error.details]).toEqual([422, 'HTTP_422', 'The instance is not valid.', []]);
  });

  test('a 401 with an empty body is an ApiError 401 that ends the session', async () => {
    const handler = vi.fn();
    onUnauthorized(handler);
    setToken('tok-expired');
    mockFetch({ 'GET /things': new Response(null, { status: 401, statusText: 'Unauthorized' }) });
    const error = (await request('GET', '/things').catch((e: unknown) => e)) as ApiError;
    expect([error.status, error.code]).toEqual([401, 'HTTP_401']);
    expect(handler).toHaveBeenCalledWith('tok-expired');
    clearToken();
  });

  test('turns the JSON error body into an ApiError with status, code, message and details', async () => {
    mockFetch({
      'POST /things': json(
        { error: { statusCode: 422, name: 'ValidationError', code: 'VALIDATION_FAILED', message: 'bad', details: [{ path: 'name', message: 'required' }] } },
        { status: 422 },
      ),
    });
    const error = (await request('POST', '/things', { body: {} }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect([error.status, error.code, error.message]).toEqual([422, 'VALIDATION_FAILED', 'bad']);
    expect(error.details).toEqual([{ path: 'name', message: 'required' }]);
  });

  test('turns a non-JSON error page into an ApiError with the status', async () => {
    mockFetch({ 'GET /things': new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }) });
    const error = (await request('GET', '/things').catch((e: unknown) => e)) as ApiError;
    expect([error.status, error.code]).toEqual([502, 'HTTP_502']);
  });

  test('turns a network failure into an ApiError with status 0', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const error = (await request('GET', '/things').catch((e: unknown) => e)) as ApiError;
    expect([error.status, error.code]).toEqual([0, 'NETWORK_ERROR']);
  });
});

describe('401 handling', () => {
  test('a 401 calls the registered unauthorized handler with the token the request carried', async () => {
    const handler = vi.fn();
    onUnauthorized(handler);
    setToken('tok-sent');
    mockFetch({ 'GET /things': apiError(401, 'UNAUTHORIZED') });
    await expect(request('GET', '/things')).rejects.toBeInstanceOf(ApiError);
    expect(handler).toHaveBeenCalledOnce();
    expect(handler).toHaveBeenCalledWith('tok-sent');
  });

  test('a 401 on a call that opts out (login) does not call the handler', async () => {
    const handler = vi.fn();
    onUnauthorized(handler);
    mockFetch({ 'POST /auth/login': apiError(401, 'LOGIN_FAILED') });
    await expect(request('POST', '/auth/login', { body: {}, skipUnauthorizedHandler: true })).rejects.toBeInstanceOf(ApiError);
    expect(handler).not.toHaveBeenCalled();
  });

  test('other error statuses do not call the handler', async () => {
    const handler = vi.fn();
    onUnauthorized(handler);
    mockFetch({ 'GET /things': apiError(403, 'FORBIDDEN') });
    await expect(request('GET', '/things')).rejects.toBeInstanceOf(ApiError);
    expect(handler).not.toHaveBeenCalled();
  });
});

describe('the end of a session', () => {
  test('abortSessionRequests aborts the calls in flight with the current token', async () => {
    setToken('tok-ending');
    let respond: (r: Response) => void = () => undefined;
    const { fetchMock } = mockFetch({ 'GET /things': () => new Promise<Response>((resolve) => (respond = resolve)) });
    const call = request('GET', '/things');
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledOnce());
    abortSessionRequests();
    expect((fetchMock.mock.calls[0][1] as RequestInit).signal?.aborted).toBe(true);
    respond(json([])); // even an answer that still arrives is not handed out
    await expect(call).rejects.toSatisfy(isAbortError);
  });

  test('after abortSessionRequests no call is sent with that token, except the one that ends the session', async () => {
    setToken('tok-ended');
    const { calls } = mockFetch({ 'GET /things': json([]), 'POST /auth/logout': new Response(null, { status: 204 }) });
    abortSessionRequests();
    await expect(request('GET', '/things')).rejects.toSatisfy(isAbortError);
    expect(calls).toHaveLength(0);
    await request('POST', '/auth/logout', { endsSession: true });
    expect(calls.map((c) => `${c.method} ${c.path} ${c.headers.authorization}`)).toEqual(['POST /v2/auth/logout Bearer tok-ended']);
    setToken('tok-next'); // the next sign-in starts a new session whose calls go out again
    await request('GET', '/things');
    expect(calls.at(-1)?.headers.authorization).toBe('Bearer tok-next');
  });

  test('a 401 for a token that is no longer the stored one rejects as an abort and does not call the handler', async () => {
    const handler = vi.fn();
    onUnauthorized(handler);
    setToken('tok-old');
    let respond: (r: Response) => void = () => undefined;
    mockFetch({ 'GET /things': () => new Promise<Response>((resolve) => (respond = resolve)) });
    const call = request('GET', '/things');
    await Promise.resolve();
    clearToken();
    respond(apiError(401, 'UNAUTHORIZED'));
    const error = await call.catch((e: unknown) => e);
    expect(isAbortError(error)).toBe(true);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(handler).not.toHaveBeenCalled();
  });

  test('a 401 for the stored token is still an ApiError', async () => {
    setToken('tok-current');
    mockFetch({ 'GET /things': apiError(401, 'UNAUTHORIZED') });
    await expect(request('GET', '/things')).rejects.toBeInstanceOf(ApiError);
  });
});

test('abortSessionRequests without a stored token stops nothing: calls without a token (login) still go out', async () => {
  clearToken();
  abortSessionRequests();
  const { calls } = mockFetch({ 'POST /auth/login': json({}) });
  await request('POST', '/auth/login', { body: {}, skipUnauthorizedHandler: true });
  expect(calls).toHaveLength(1);
});

describe('versions (If-Match, ETag, 412)', () => {
  test("sends If-Match on a write when given, never on a read, and reads the answer's ETag", async () => {
    const { calls } = mockFetch({ 'PATCH /things/1': json({ id: '1' }, { headers: { ETag: '"v2"' } }), 'GET /things/1': json({ id: '1' }) });
    const result = await request('PATCH', '/things/1', { body: {}, schema: ItemSchema, ifMatch: '"v1"' });
    expect(calls[0].headers['if-match']).toBe('"v1"');
    expect(result.etag).toBe('"v2"');
    await request('GET', '/things/1', { schema: ItemSchema, ifMatch: '"v1"' });
    expect(calls[1].headers['if-match']).toBeUndefined();
    await request('PATCH', '/things/1', { body: {}, schema: ItemSchema, ifMatch: null }).catch(() => undefined);
    expect(calls[2].headers['if-match']).toBeUndefined();
  });

  test('a 412 carries the current record and its ETag to the caller', async () => {
    mockFetch({
      'PUT /things/1': json(
        { error: { statusCode: 412, name: 'PreconditionFailedError', code: 'VERSION_MISMATCH', message: 'changed', current: { id: '1', name: 'theirs' } } },
        { status: 412, headers: { ETag: '"v3"' } },
      ),
    });
    const error = await request('PUT', '/things/1', { body: {}, ifMatch: '"v1"' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 412, code: 'VERSION_MISMATCH', current: { id: '1', name: 'theirs' }, etag: '"v3"' });
  });
});

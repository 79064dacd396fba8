import { afterEach, describe, expect, test, vi } from 'vitest';
import { ApiError, abortSessionRequests, clearToken, isAbortError, onUnauthorized, request, setToken } from './http.ts';
import { apiError, json, mockFetch } from '../../test/helpers/client-fetch.ts';

// A 401 and the end of a session: the unauthorized handler, and the calls abortSessionRequests stops.

afterEach(() => {
  vi.unstubAllGlobals();
  onUnauthorized(null);
});

describe('401 handling', () => {
  test('a 401 calls the registered unauthorized handler with the token the request carried and the error code', async () => {
    const handler = vi.fn();
    onUnauthorized(handler);
    setToken('tok-sent');
    mockFetch({ 'GET /things': apiError(401, 'SESSION_IDLE') });
    await expect(request('GET', '/things')).rejects.toBeInstanceOf(ApiError);
    expect(handler).toHaveBeenCalledOnce();
    expect(handler).toHaveBeenCalledWith('tok-sent', 'SESSION_IDLE');
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

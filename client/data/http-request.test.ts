import { afterEach, describe, expect, test, vi } from 'vitest';
import * as v from 'valibot';
import { ApiError, encodeQuery, request, setToken } from './http.ts';
import { apiError, json, mockFetch, noContent } from '../../test/helpers/client-fetch.ts';

// What request() sends: headers, the query, the version a write names. Answers: http-answers.test.ts; the end
// of a session: http-session.test.ts.

afterEach(() => {
  vi.unstubAllGlobals();
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

describe('a write the gateway refused for its XSRF pair', () => {
  /** The gateway's 403, with the fresh cookie the browser would have stored from its Set-Cookie. */
  const refusal =
    (fresh: string | null, code = 'XSRF_TOKEN_INVALID') =>
    () => {
      if (fresh) document.cookie = `XSRF-TOKEN=${fresh}; path=/`;
      return apiError(403, code);
    };

  test('is sent once more with the new token, and its answer is the answer', async () => {
    document.cookie = 'XSRF-TOKEN=stale; path=/';
    let calls = 0;
    const { calls: sent } = mockFetch({ 'POST /things': (call) => (calls++ === 0 ? refusal('fresh')() : json({ id: call.headers['x-xsrf-token'] })) });
    const result = await request('POST', '/things', { body: { name: 'x' }, schema: ItemSchema });
    expect(sent.map((c) => c.headers['x-xsrf-token'])).toEqual(['stale', 'fresh']);
    expect(sent[1].body).toEqual({ name: 'x' });
    expect(result.data).toEqual({ id: 'fresh' });
  });

  test('is sent once more when the browser had no token at all', async () => {
    let calls = 0;
    const { calls: sent } = mockFetch({ 'DELETE /things/1': () => (calls++ === 0 ? refusal('fresh')() : noContent()) });
    await request('DELETE', '/things/1');
    expect(sent.map((c) => c.headers['x-xsrf-token'])).toEqual([undefined, 'fresh']);
  });

  test('is not repeated a second time: a second refusal is the error', async () => {
    let n = 0;
    const { calls: sent } = mockFetch({ 'PATCH /things/1': () => refusal(`t${++n}`)() });
    await expect(request('PATCH', '/things/1', { body: {} })).rejects.toMatchObject({ status: 403, code: 'XSRF_TOKEN_INVALID' });
    expect(sent).toHaveLength(2);
  });

  test('is not repeated without a new token, nor for another 403', async () => {
    document.cookie = 'XSRF-TOKEN=same; path=/';
    const { calls: sent } = mockFetch({ 'POST /a': refusal(null), 'POST /b': refusal('fresh', 'XSRF_CROSS_SITE'), 'POST /c': refusal('other', 'FORBIDDEN') });
    for (const path of ['/a', '/b', '/c']) await expect(request('POST', path, { body: {} })).rejects.toMatchObject({ status: 403 });
    expect(sent.map((c) => c.path)).toEqual(['/v2/a', '/v2/b', '/v2/c']);
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

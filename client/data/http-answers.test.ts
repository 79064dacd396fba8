import { afterEach, describe, expect, test, vi } from 'vitest';
import * as v from 'valibot';
import { ApiError, InvalidAnswerError, clearToken, onUnauthorized, request, setToken } from './http.ts';
import { json, mockFetch } from '../../test/helpers/client-fetch.ts';
import { reportError } from '../lib/error-reporting.ts';

vi.mock('../lib/error-reporting.ts', () => ({ reportError: vi.fn() }));

// How request() reads an answer: the schema, X-Total-Count, error bodies, an unusable answer and its report.

afterEach(() => {
  vi.unstubAllGlobals();
  onUnauthorized(null);
});

const ItemSchema = v.object({ id: v.string() });

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
    expect(handler).toHaveBeenCalledWith('tok-expired', 'HTTP_401');
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

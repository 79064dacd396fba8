import { describe, expect } from 'vitest';
import request from 'supertest';
import { createApp } from '../../../server/app.ts';
import { redactUrl } from '../../../server/shared/redaction.ts';
import { captureLogger, testConfig } from '../../helpers/gateway-fixtures.ts';
import { fakeUpstreamTest } from '../../helpers/gateway-test.ts';

/** `setup()`: a gateway whose log is captured, in front of the file's upstream. */
const test = fakeUpstreamTest().extend('setup', { scope: 'file' }, ({ publicDir, upstream }) => () => {
  const capture = captureLogger();
  const app = createApp(testConfig({ UPSTREAM_URL: upstream.url }), { publicDir: publicDir.dir, logger: capture.logger });
  return { app, capture };
});

describe('request log', () => {
  test('writes one JSON line per request with method, URL, status and request id', async ({ setup }) => {
    const { app, capture } = setup();
    const res = await request(app).get('/login');
    const line = capture.lines.find((l) => l.msg === 'request completed')!;
    expect(line).toMatchObject({ level: 30, req: { method: 'GET', url: '/login' }, res: { statusCode: 200 } });
    expect((line.req as { id: string }).id).toBe(res.headers['x-request-id']);
  });

  test('generates a request id and echoes it', async ({ setup }) => {
    const { app } = setup();
    const res = await request(app).get('/login');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('accepts a caller X-Request-Id and echoes it', async ({ setup }) => {
    const { app, capture } = setup();
    const res = await request(app).get('/login').set('X-Request-Id', 'lb-1234.abc');
    expect(res.headers['x-request-id']).toBe('lb-1234.abc');
    expect(capture.lines.some((l) => (l.req as { id?: string })?.id === 'lb-1234.abc')).toBe(true);
  });

  test('replaces a request id that could forge log content', async ({ setup }) => {
    const { app } = setup();
    const res = await request(app).get('/login').set('X-Request-Id', 'x"}{"level":60');
    expect(res.headers['x-request-id']).not.toContain('"');
  });

  test('keeps Authorization, Cookie, X-XSRF-TOKEN, Set-Cookie and query values out of the line', async ({ setup }) => {
    const { app, capture } = setup();
    await request(app).get('/login'); // sets cookies: Set-Cookie must not reach the line
    await request(app)
      .get('/reset-password?access_token=SECRET-RESET-1&x=1')
      .set('Authorization', 'Bearer SECRET-BEARER')
      .set('Cookie', 'XSRF-TOKEN=SECRET-COOKIE')
      .set('X-XSRF-TOKEN', 'SECRET-XSRF');
    await request(app).get('/v2/auth/me?accessToken=SECRET-RESET-2').set('Authorization', 'Bearer SECRET-BEARER-2');
    await request(app).post('/v2/auth/me/set-password?access_token=SECRET-RESET-3').set('X-XSRF-TOKEN', 'SECRET-XSRF-2');
    const text = capture.text();
    for (const secret of ['SECRET-RESET-1', 'SECRET-RESET-2', 'SECRET-RESET-3', 'SECRET-BEARER', 'SECRET-COOKIE', 'SECRET-XSRF']) {
      expect(text).not.toContain(secret);
    }
    const completed = capture.lines.filter((l) => l.msg === 'request completed') as { req: Record<string, unknown>; res: Record<string, unknown> }[];
    expect(completed).toHaveLength(4);
    expect(text).not.toMatch(/xsrf-sid=|XSRF-TOKEN=/);
    // Query values are left out altogether (search words are personal data); the names stay.
    expect(completed[1].req.url).toBe('/reset-password?access_token=[Redacted]&x=[Redacted]');
    for (const line of completed) {
      expect(Object.keys(line.req).sort()).toEqual(['id', 'method', 'remoteAddress', 'url']);
      expect(Object.keys(line.res)).toEqual(['statusCode']);
    }
  });

  test('logs 5xx answers at error level and 4xx at warn', async ({ setup }) => {
    const { app, capture } = setup();
    await request(app).get('/assets/none.js');
    const line = capture.lines.find((l) => l.msg === 'request completed')!;
    expect(line.level).toBe(40);
  });

  test('does not log health probes', async ({ setup }) => {
    const { app, capture } = setup();
    await request(app).get('/healthz');
    expect(capture.lines.filter((l) => l.msg === 'request completed')).toHaveLength(0);
  });
});

describe('redactUrl', () => {
  test.each([
    ['/reset-password?accessToken=abc', '/reset-password?accessToken=[Redacted]'],
    ['/x?a=1&access_token=abc#frag', '/x?a=1&access_token=[Redacted]#frag'],
    ['/x?ACCESS_TOKEN=abc&b=2', '/x?ACCESS_TOKEN=[Redacted]&b=2'],
    ['/x?token=keep', '/x?token=keep'],
  ])('%s -> %s', (input, output) => {
    expect(redactUrl(input)).toBe(output);
  });
});

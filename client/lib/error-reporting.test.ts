import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { installErrorHandlers, reportError, resetErrorReportingForTests, startErrorReporting } from './error-reporting.ts';
import { scrubEvent, scrubText } from './error-scrub.ts';

function fakeSentry() {
  const captured: unknown[] = [];
  let options: Record<string, unknown> = {};
  const module = { init: vi.fn((o: Record<string, unknown>) => (options = o)), captureException: vi.fn((e: unknown) => captured.push(e)) };
  return { module, captured, options: () => options };
}

function setDsn(dsn: string | null) {
  document.head.querySelector('meta[name="sentry-dsn"]')?.remove();
  if (dsn) {
    const meta = document.createElement('meta');
    meta.name = 'sentry-dsn';
    meta.content = dsn;
    document.head.append(meta);
  }
}

beforeEach(() => {
  resetErrorReportingForTests();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
  setDsn(null);
});

describe('error reporting', () => {
  test('unhandled errors and rejections are logged to the console', () => {
    installErrorHandlers();
    const error = new Error('boom');
    window.dispatchEvent(new ErrorEvent('error', { error, message: 'boom' }));
    const rejection = Object.assign(new Event('unhandledrejection'), { reason: 'rejected' });
    window.dispatchEvent(rejection);
    expect(console.error).toHaveBeenCalledWith(error);
    expect(console.error).toHaveBeenCalledWith('rejected');
  });

  test('errors before Sentry has loaded are queued and sent once it is ready', async () => {
    setDsn('https://key@sentry.example/1');
    const sentry = fakeSentry();
    const early = new Error('early');
    reportError(early);
    expect(sentry.captured).toEqual([]);
    await startErrorReporting(async () => sentry.module as never);
    expect(sentry.module.init).toHaveBeenCalledOnce();
    expect((sentry.options() as { dsn: string }).dsn).toBe('https://key@sentry.example/1');
    expect(sentry.captured).toEqual([early]);
    const late = new Error('late');
    reportError(late);
    expect(sentry.captured).toEqual([early, late]);
  });

  test('without a DSN Sentry is never loaded', async () => {
    const load = vi.fn();
    reportError(new Error('x'));
    await startErrorReporting(load);
    expect(load).not.toHaveBeenCalled();
    expect(console.error).toHaveBeenCalled();
  });

  test('with a DSN, Sentry is not downloaded until the first error happens, then once', async () => {
    setDsn('https://key@sentry.example/1');
    const sentry = fakeSentry();
    const load = vi.fn(async () => sentry.module as never);
    await startErrorReporting(load);
    expect(load).not.toHaveBeenCalled();
    const first = new Error('first');
    reportError(first);
    reportError(new Error('second'));
    await vi.waitFor(() => expect(sentry.captured).toHaveLength(2));
    expect(load).toHaveBeenCalledOnce();
    expect(sentry.captured[0]).toBe(first);
  });

  test('a Sentry that cannot be downloaded leaves the errors on the console and the page working', async () => {
    setDsn('https://key@sentry.example/1');
    await startErrorReporting(async () => {
      throw new TypeError('Failed to fetch dynamically imported module');
    });
    expect(() => reportError(new Error('after'))).not.toThrow();
    await vi.waitFor(() => expect(console.error).toHaveBeenCalledWith('Error reporting could not start', expect.any(TypeError)));
  });

  test('beforeSend is the scrubber', async () => {
    setDsn('https://key@sentry.example/1');
    const sentry = fakeSentry();
    await startErrorReporting(async () => sentry.module as never);
    reportError(new Error('x'));
    await vi.waitFor(() => expect(sentry.module.init).toHaveBeenCalled());
    const beforeSend = sentry.options().beforeSend as (e: object) => { user?: unknown };
    expect(beforeSend({ user: { email: 'a@b.de' } }).user).toBeUndefined();
  });
});

describe('scrubbing', () => {
  test('removes bearer tokens, token parameters, emails and query strings from texts', () => {
    const text = scrubText('GET https://app.example/v2/patients?filter=%7B%7D failed for coach@example.org with Bearer abc.def-123');
    expect(text).not.toContain('coach@example.org');
    expect(text).not.toContain('abc.def-123');
    expect(text).not.toContain('filter=');
    expect(text).toContain('https://app.example/v2/patients');
    expect(scrubText('/reset-password?access_token=secret123')).toBe('/reset-password');
    expect(scrubText('token=secret123 failed')).toBe('token=[removed] failed');
  });

  test('removes user info, request data, cookies, headers and extras from an event', () => {
    const event = scrubEvent({
      message: 'Failed for coach@example.org',
      user: { id: '1', email: 'coach@example.org' },
      extra: { patient: 'Max' },
      request: { url: 'https://app.example/patient/7?name=Max', data: { password: 'x' }, cookies: { a: 'b' }, headers: { Authorization: 'Bearer t' } },
      exception: { values: [{ value: 'Bearer secret-token-value failed' }] },
      breadcrumbs: [{ message: 'to /print/access-code?code=ABC', data: { url: '/v2/patients?filter=x', method: 'GET', body: 'secret' } }],
    });
    expect(event.user).toBeUndefined();
    expect(event.extra).toBeUndefined();
    expect(event.request).toEqual({ url: 'https://app.example/patient/7' });
    expect(event.message).toBe('Failed for [email]');
    expect(event.exception?.values?.[0].value).toBe('Bearer [removed] failed');
    expect(event.breadcrumbs?.[0]).toEqual({ message: 'to /print/access-code', data: { url: '/v2/patients', method: 'GET' } });
  });
});

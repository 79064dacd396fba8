import { test as baseTest, describe, expect } from 'vitest';
import express from 'express';
import request from 'supertest';
import type { ErrorEvent } from '@sentry/node-core/light';
import { errorHandler } from '../../../server/errors.ts';
import { scrubEvent, startSentry } from '../../../server/sentry.ts';
import { listen } from '../../helpers/gateway-fixtures.ts';

/** `listenFor(handler)`: a server of the test's own (listen), closed when the test ends. */
// biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixtures a fixture needs from its first parameter
const test = baseTest.extend('listenFor', ({}, { onCleanup }) => {
  const servers: Awaited<ReturnType<typeof listen>>[] = [];
  onCleanup(async () => {
    for (const server of servers) await server.close();
  });
  return async (...args: Parameters<typeof listen>) => {
    const server = await listen(...args);
    servers.push(server);
    return server;
  };
});

describe('without SENTRY_DSN', () => {
  test('the Sentry SDK is not even loaded and reporting does nothing', async () => {
    const reporter = await startSentry(undefined, 'production');
    reporter.capture(new Error('boom'));
    await reporter.close();
    expect((globalThis as { __SENTRY__?: unknown }).__SENTRY__).toBeUndefined();
  });
});

describe('scrubEvent', () => {
  test('removes headers, cookies, bodies, query strings and the user', () => {
    const event = {
      message: 'boom',
      request: {
        method: 'POST',
        url: 'https://portal.example.org/reset-password?access_token=SECRET',
        query_string: 'access_token=SECRET',
        headers: { authorization: 'Bearer SECRET', cookie: 'XSRF-TOKEN=SECRET' },
        cookies: { 'XSRF-TOKEN': 'SECRET' },
        data: { email: 'patient@example.org' },
      },
      user: { email: 'coach@example.org', ip_address: '10.0.0.1' },
      extra: { body: 'SECRET' },
      breadcrumbs: [
        { category: 'http', data: { url: 'http://up/v2/auth/me?accessToken=SECRET', method: 'GET' } },
        { category: 'http', data: { url: 'http://up/v2/patients', 'http.method': 'GET', 'http.query': '?filter=SECRET', status_code: 200 } },
      ],
    } as unknown as ErrorEvent;
    const scrubbed = scrubEvent(event);
    const text = JSON.stringify(scrubbed);
    expect(text).not.toContain('SECRET');
    expect(text).not.toContain('example.org"');
    expect(text).not.toContain('patient@');
    expect(scrubbed.request).toEqual({ method: 'POST', url: 'https://portal.example.org/reset-password' });
    expect(scrubbed.user).toBeUndefined();
    expect(scrubbed.breadcrumbs?.map((crumb) => crumb.data)).toEqual([
      { url: 'http://up/v2/auth/me', method: 'GET' },
      { url: 'http://up/v2/patients', 'http.method': 'GET', status_code: 200 },
    ]);
  });
});

describe('the error handler', () => {
  test('reports unexpected errors and answers a generic 500 in the docs/contract.md#errors shape', async () => {
    const reported: unknown[] = [];
    const app = express();
    app.get('/boom', () => {
      throw new Error('database password is hunter2');
    });
    app.use(errorHandler((error) => reported.push(error)));
    const res = await request(app).get('/boom');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: { statusCode: 500, name: 'InternalServerError', code: 'INTERNAL_ERROR', message: 'Internal server error' } });
    expect(reported).toHaveLength(1);
  });
});

describe('with SENTRY_DSN', () => {
  const envelopes: string[] = [];

  test('errors reach the configured Sentry without personal data', async ({ listenFor }) => {
    const ingest = await listenFor((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        envelopes.push(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    const dsn = `${ingest.url.replace('http://', 'http://publickey@')}/1`;
    const reporter = await startSentry(dsn, 'test');
    const Sentry = await import('@sentry/node-core/light');
    // Built at run time: the report carries source context lines, which must not fake a leak.
    const email = ['coach', 'example.org'].join('@');
    const secret = ['SEC', 'RET'].join('');
    Sentry.withScope((scope) => {
      scope.setUser({ email });
      scope.setExtra('body', { password: secret });
      reporter.capture(new Error('gateway test error'));
    });
    await reporter.close();
    const all = envelopes.join('\n');
    expect(all).toContain('gateway test error');
    expect(all).not.toContain(email);
    expect(all).not.toContain(secret);
  });
});

import { describe, expect, vi } from 'vitest';
import { type IncomingMessage, request as httpRequest } from 'node:http';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import request from 'supertest';
import { apiLane } from '../../../server/api-lane.ts';
import { createApp } from '../../../server/app.ts';
import { HttpError } from '../../../server/errors.ts';
import { listen, testConfig } from '../../helpers/gateway-fixtures.ts';
import { fakeUpstreamTest } from '../../helpers/gateway-test.ts';

const test = fakeUpstreamTest().extend('gateway', { scope: 'file' }, async ({ publicDir, upstream }, { onCleanup }) => {
  const gateway = await listen(createApp(testConfig({ UPSTREAM_URL: upstream.url }), { publicDir: publicDir.dir }));
  onCleanup(() => gateway.close());
  return gateway;
});

/** GET with the request target exactly as given: `/v2/…` takes the lane, `http://host/v2/…` goes through Express. */
function getTarget(base: string, target: string): Promise<{ status: number; headers: IncomingMessage['headers']; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    httpRequest({ hostname, port, path: target, headers: { host: `${hostname}:${port}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    })
      .on('error', reject)
      .end();
  });
}

/** Every header but those that differ from answer to answer. */
const stable = (headers: IncomingMessage['headers']) => {
  const { date: _date, 'x-request-id': _id, 'set-cookie': cookies, ...rest } = headers;
  return { ...rest, 'set-cookie': cookies?.map((cookie) => cookie.replace(/=[^;]*/, '=…')) };
};

describe('the /v2 lane', () => {
  test('answers a /v2 call as the Express chain does (same status, headers and forwarded request)', async ({ gateway, upstream }) => {
    const viaLane = await getTarget(gateway.url, '/v2/news?filter=%7B%7D');
    const viaExpress = await getTarget(gateway.url, `${gateway.url}/v2/news?filter=%7B%7D`);
    expect(viaLane.status).toBe(200);
    expect(viaExpress.status).toBe(200);
    expect(stable(viaLane.headers)).toEqual(stable(viaExpress.headers));
    const [laneCall, expressCall] = upstream.requests.slice(-2);
    expect(laneCall.url).toBe('/v2/news?filter=%7B%7D');
    expect(expressCall.url).toBe(laneCall.url);
    expect(Object.keys(expressCall.headers).sort()).toEqual(Object.keys(laneCall.headers).sort());
  });

  test("refuses in the lane what Express's chain refuses (a foreign Host, a dot segment, an unknown method)", async ({ gateway }) => {
    const app = createApp(testConfig({ UPSTREAM_URL: gateway.url }));
    expect((await request(app).get('/v2/news').set('Host', 'attacker.example')).body.error.code).toBe('HOST_NOT_ALLOWED');
    expect((await request(app).get('/v2/a/%2e%2e/b')).body.error.code).toBe('INVALID_REQUEST_TARGET');
    const trace = await request(app).trace('/v2/news');
    expect(trace.status).toBe(405);
    expect(trace.headers.allow).toContain('GET');
  });
});

describe('apiLane', () => {
  const app = express();
  const run = async (steps: RequestHandler[]) => {
    const handled: unknown[] = [];
    const handleError: ErrorRequestHandler = (error, _req, res) => {
      handled.push(error);
      res.status(599).end();
    };
    const server = await listen(apiLane(app, steps, handleError));
    try {
      const res = await request(server.url).get('/v2/x');
      return { status: res.status, handled };
    } finally {
      await server.close();
    }
  };

  test('calls each step in turn with Express request and response objects', async () => {
    const seen: string[] = [];
    const { status } = await run([
      (req, _res, next) => {
        seen.push(`first ${req.path}`);
        next();
      },
      (req, res) => {
        seen.push(`second ${typeof req.get} ${typeof res.json}`);
        res.json({ ok: true });
      },
    ]);
    expect(status).toBe(200);
    expect(seen).toEqual(['first /v2/x', 'second function function']);
  });

  test('hands an error passed to next, or thrown, to the error handler and stops there', async () => {
    const after = vi.fn();
    const passed = new HttpError(403, 'NO', 'no');
    expect(await run([(_req, _res, next) => next(passed), after])).toEqual({ status: 599, handled: [passed] });
    const thrown = new Error('boom');
    expect(
      await run([
        () => {
          throw thrown;
        },
        after,
      ]),
    ).toEqual({ status: 599, handled: [thrown] });
    expect(after).not.toHaveBeenCalled();
  });

  test('answers 404 through the error handler when no step answered', async () => {
    const { status, handled } = await run([(_req, _res, next) => next()]);
    expect(status).toBe(599);
    expect((handled[0] as HttpError).status).toBe(404);
  });
});

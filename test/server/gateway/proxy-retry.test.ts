import { afterEach, describe, expect, vi } from 'vitest';
import request from 'supertest';
import { ClientRequest, ServerResponse } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { createApp } from '../../../server/app.ts';
import { captureLogger, startFakeUpstream, testConfig } from '../../helpers/gateway-fixtures.ts';
import { publicDirTest } from '../../helpers/gateway-test.ts';
import type { FakeUpstream } from '../../helpers/gateway-fixtures.ts';
import { xsrfFrom } from '../../helpers/xsrf-pair.ts';

/*
 * The gateway's answer to the keep-alive race (a pooled connection reset by the upstream just as a request goes out
 * on it) is one retry on a fresh connection, for a GET or HEAD only, and only when no byte of an answer came back.
 * And its last line of defence: whatever node:http throws while one request is proxied ends that request alone.
 */

/**
 * An upstream that answers the first request of the test normally and then treats every connection by `onLater`
 * (given the request's number on its connection): the gateway's pool then holds one live connection to reuse.
 */
function firstThen(onLater: (nthOnConnection: number, req: IncomingMessage, res: ServerResponse) => void) {
  const perConnection = new WeakMap<Socket, number>();
  let first = true;
  return (req: IncomingMessage, res: ServerResponse) => {
    const nth = (perConnection.get(req.socket) ?? 0) + 1;
    perConnection.set(req.socket, nth);
    if (first) {
      first = false;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"n":1}');
      return;
    }
    onLater(nth, req, res);
  };
}

const answer = (res: ServerResponse) => {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end('{"ok":true}');
};

const test = publicDirTest
  /** `fakeUpstream(handler)`: a stand-in upstream of the test's own, closed when it ends. */
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixtures a fixture needs from its first parameter
  .extend('fakeUpstream', ({}, { onCleanup }) => {
    const started: FakeUpstream[] = [];
    onCleanup(async () => {
      for (const upstream of started) await upstream.close();
    });
    return async (handler: Parameters<typeof startFakeUpstream>[0]) => {
      const upstream = await startFakeUpstream(handler);
      started.push(upstream);
      return upstream;
    };
  })
  .extend(
    'upstreamThatThen',
    ({ fakeUpstream }) =>
      (onLater: Parameters<typeof firstThen>[0]) =>
        fakeUpstream(firstThen(onLater)),
  )
  .extend(
    'appFor',
    { scope: 'file' },
    ({ publicDir }) =>
      (upstream: FakeUpstream, options: Parameters<typeof createApp>[1] = {}) =>
        createApp(testConfig({ UPSTREAM_URL: upstream.url }), { publicDir: publicDir.dir, ...options }),
  );

afterEach(() => {
  vi.restoreAllMocks();
});

describe('one retry on a fresh connection', () => {
  test.for(['GET', 'HEAD'])(
    'a %s reset on a reused connection before any answer byte is sent again once and answered',
    async (method, { upstreamThatThen, appFor }) => {
      // Second request on a connection: cut, as an upstream closing an idle connection does. A fresh one answers.
      const upstream = await upstreamThatThen((nth, req, res) => (nth === 2 ? req.socket.destroy() : answer(res)));
      const app = appFor(upstream);
      await request(app).get('/v2/warm-up').expect(200);
      const res = await request(app)[method === 'GET' ? 'get' : 'head']('/v2/patients');
      expect(res.status).toBe(200);
      expect(upstream.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /v2/warm-up', `${method} /v2/patients`, `${method} /v2/patients`]);
    },
  );

  test.for(['POST', 'PUT', 'PATCH', 'DELETE'])(
    'a %s is never sent twice: reset on a reused connection, it is a 502',
    async (method, { upstreamThatThen, appFor }) => {
      const upstream = await upstreamThatThen((nth, req, res) => (nth === 2 ? req.socket.destroy() : answer(res)));
      const app = appFor(upstream);
      const { cookie, token } = await xsrfFrom(app);
      await request(app).get('/v2/warm-up').expect(200);
      const verb = method.toLowerCase() as 'post' | 'put' | 'patch' | 'delete';
      const res = await request(app)[verb]('/v2/patients/p1').set('Cookie', cookie).set('X-XSRF-TOKEN', token).send({ a: 1 });
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe('UPSTREAM_UNAVAILABLE');
      expect(upstream.requests.filter((r) => r.method === method)).toHaveLength(1);
    },
  );

  test('the retry happens once: when the fresh connection fails too, the answer is 502', async ({ upstreamThatThen, appFor }) => {
    const upstream = await upstreamThatThen((_nth, req) => req.socket.destroy());
    const app = appFor(upstream);
    await request(app).get('/v2/warm-up').expect(200);
    const res = await request(app).get('/v2/patients');
    expect(res.status).toBe(502);
    expect(upstream.requests.filter((r) => r.url === '/v2/patients')).toHaveLength(2);
  });

  test('no retry once the upstream began to answer', async ({ upstreamThatThen, appFor }) => {
    const upstream = await upstreamThatThen((nth, req, res) => {
      if (nth !== 2) return answer(res);
      req.socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n');
      req.socket.destroy();
    });
    const app = appFor(upstream);
    await request(app).get('/v2/warm-up').expect(200);
    const res = await request(app).get('/v2/patients');
    expect(res.status).toBe(502);
    expect(upstream.requests.filter((r) => r.url === '/v2/patients')).toHaveLength(1);
  });

  test('no retry for a request on a fresh connection: that is not the keep-alive race', async ({ fakeUpstream, appFor }) => {
    const upstream = await fakeUpstream((req) => req.socket.destroy());
    const res = await request(appFor(upstream)).get('/v2/patients');
    expect(res.status).toBe(502);
    expect(upstream.requests).toHaveLength(1);
  });
});

describe('the last line of defence', () => {
  test('a throw inside node:http while a request body streams to the upstream ends that request with 502, logged and reported once', async ({
    fakeUpstream,
    appFor,
  }) => {
    const upstream = await fakeUpstream((_req, res) => answer(res));
    const log = captureLogger();
    const report = vi.fn();
    const app = appFor(upstream, { logger: log.logger, report });
    const end = ClientRequest.prototype.end;
    // Only the gateway's own upstream request for /v2/fault throws (it is the one that carries X-Forwarded-For).
    vi.spyOn(ClientRequest.prototype, 'end').mockImplementation(function (this: ClientRequest, ...args: unknown[]) {
      if (this.path === '/v2/fault' && this.getHeader('x-forwarded-for'))
        throw Object.assign(new Error('invalid trailer'), { code: 'ERR_HTTP_TRAILER_INVALID' });
      return Reflect.apply(end, this, args) as ClientRequest;
    });
    const res = await request(app).get('/v2/fault');
    expect(res.status).toBe(502);
    expect(res.body.error).toMatchObject({ statusCode: 502, code: 'UPSTREAM_UNAVAILABLE' });
    const faults = log.lines.filter((line) => line.msg === 'proxy fault: request ended');
    expect(faults).toHaveLength(1);
    expect(faults[0]).toMatchObject({ level: 50, code: 'ERR_HTTP_TRAILER_INVALID' });
    expect(report).toHaveBeenCalledTimes(1);
    expect(String(report.mock.calls[0][0].message)).toBe('upstream proxy fault: ERR_HTTP_TRAILER_INVALID');
    // The next request is served as usual.
    expect((await request(app).get('/v2/next')).status).toBe(200);
  });

  test('a throw while the upstream answer is written to the browser ends that request with 502 and nothing else', async ({ fakeUpstream, appFor }) => {
    const upstream = await fakeUpstream((req, res) => {
      res.writeHead(req.url === '/v2/odd' ? 299 : 200, { 'Content-Type': 'application/json', 'X-From-Upstream': 'yes' });
      res.end('{}');
    });
    const log = captureLogger();
    const app = appFor(upstream, { logger: log.logger });
    const writeHead = ServerResponse.prototype.writeHead;
    vi.spyOn(ServerResponse.prototype, 'writeHead').mockImplementation(function (this: ServerResponse, ...args: unknown[]) {
      // The gateway's answer (it carries the gateway's X-Request-Id), not the fake upstream's in this same process.
      if (args[0] === 299 && this.hasHeader('x-request-id')) throw Object.assign(new Error('invalid header'), { code: 'ERR_HTTP_INVALID_HEADER_VALUE' });
      return Reflect.apply(writeHead, this, args) as ServerResponse;
    });
    const res = await request(app).get('/v2/odd');
    expect(res.status).toBe(502);
    expect(res.headers['x-from-upstream']).toBeUndefined();
    expect(log.lines.filter((line) => line.msg === 'proxy fault: request ended')).toHaveLength(1);
    expect((await request(app).get('/v2/fine')).status).toBe(200);
  });
});

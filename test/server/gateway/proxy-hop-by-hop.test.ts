import { describe, expect } from 'vitest';
import { createApp } from '../../../server/app.ts';
import { listen, startFakeUpstream, testConfig } from '../../helpers/gateway-fixtures.ts';
import { ownUpstreamTest } from '../../helpers/gateway-test.ts';
import { exchange } from '../../helpers/raw-http.ts';
import { rawRequest } from '../../helpers/gateway-stack.ts';
import { xsrfPairOf } from '../../helpers/xsrf-pair.ts';

/*
 * RFC 9110 7.6.1: hop-by-hop fields describe one connection and a proxy removes them, together with every field the
 * Connection header names. Raw requests over a socket, because node:http itself refuses to send some of these.
 */

// Each test its own upstream, so it sees only its own requests, and a gateway on a port in front of it.
const test = ownUpstreamTest()
  .extend('gateway', async ({ publicDir, upstream }, { onCleanup }) => {
    const gateway = await listen(createApp(testConfig({ UPSTREAM_URL: upstream.url }), { publicDir: publicDir.dir }));
    onCleanup(() => gateway.close());
    return gateway;
  })
  .extend('port', ({ gateway }) => Number(new URL(gateway.url).port))
  /** `request(lines, body, method, version)`: the bytes of a request to /v2/echo with these header lines. */
  .extend(
    'request',
    ({ port }) =>
      (lines: string[], body = '', method = 'GET', version = 'HTTP/1.1') =>
        rawRequest(port, `${method} /v2/echo ${version}\r\nHost: localhost\r\n${lines.map((l) => `${l}\r\n`).join('')}\r\n${body}`, 5000, method),
  );

describe('request fields the upstream never receives', () => {
  test.for([
    { sent: ['Trailer: X-Foo'], dropped: ['trailer'] },
    { sent: ['TE: trailers'], dropped: ['te'] },
    { sent: ['Connection: TE', 'TE: gzip'], dropped: ['te'] },
    { sent: ['Upgrade: websocket'], dropped: ['upgrade'] },
    { sent: ['Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13'], dropped: ['upgrade'] },
    { sent: ['Connection: Upgrade, HTTP2-Settings', 'Upgrade: h2c', 'HTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA'], dropped: ['upgrade', 'http2-settings'] },
    { sent: ['HTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA'], dropped: ['http2-settings'] },
    { sent: ['Connection: keep-alive', 'Keep-Alive: timeout=5, max=1000'], dropped: ['keep-alive'] },
    { sent: ['Proxy-Connection: keep-alive, X-Named'], dropped: ['proxy-connection', 'x-named'], also: ['X-Named: 1'] },
    { sent: ['Proxy-Authorization: Basic dXNlcjpwYXNz'], dropped: ['proxy-authorization'] },
    { sent: ['Connection: close, X-Secret', 'X-Secret: for-this-hop'], dropped: ['x-secret'] },
    { sent: ['Connection: X-A', 'Connection: x-b', 'X-A: 1', 'X-B: 2'], dropped: ['x-a', 'x-b'] },
    { sent: ['Connection: Cookie', 'Cookie: session=abc'], dropped: ['cookie'] },
  ])('$sent.0 ...: the upstream gets the request without $dropped', async ({ sent, dropped, also = [] }, { request, upstream }) => {
    const answer = await request([...sent, ...also]);
    expect(answer.status).toBe(200);
    expect(upstream.requests).toHaveLength(1);
    const received = upstream.requests[0].headers;
    for (const name of dropped) expect(received, name).not.toHaveProperty(name);
    expect(received.connection ?? 'keep-alive').toMatch(/^(keep-alive|close)$/);
  });

  test('Expect and the xsrf-sid cookie are removed also when the body waits for 100 Continue', async ({ gateway, port, upstream }) => {
    const page = await fetch(`${gateway.url}/login`);
    const { cookie, token } = xsrfPairOf(page.headers.getSetCookie());
    const lines = [`Cookie: ${cookie}; theme=dark`, `X-XSRF-TOKEN: ${token}`, 'Expect: 100-continue', 'Content-Type: application/json', 'Content-Length: 2'];
    // (exchange() reads past the interim 100 Continue to the answer.)
    const answer = await exchange(port, `POST /v2/echo HTTP/1.1\r\nHost: localhost\r\n${lines.join('\r\n')}\r\n\r\n{}`, ['POST']);
    expect(answer.responses[0]?.status).toBe(200);
    const received = upstream.requests[0];
    expect(received.body).toBe('{}');
    expect(received.headers).not.toHaveProperty('expect');
    expect(received.headers.cookie).not.toContain('xsrf-sid');
    expect(received.headers.cookie).toContain('theme=dark');
  });

  test('a GET with a Trailer field and a chunked body arrives whole, framed by the gateway', async ({ request, upstream }) => {
    const answer = await request(['Trailer: X-Checksum', 'Transfer-Encoding: chunked'], '3\r\nabc\r\n2\r\nde\r\n0\r\nX-Checksum: 1\r\n\r\n');
    expect(answer.status).toBe(200);
    expect(upstream.requests[0].body).toBe('abcde');
    expect(upstream.requests[0].headers['transfer-encoding']).toBe('chunked');
    expect(upstream.requests[0].headers).not.toHaveProperty('trailer');
    expect(upstream.requests[0].headers).not.toHaveProperty('x-checksum');
  });

  test.for(['Content-Length', 'Transfer-Encoding'])('a body keeps its framing when Connection names %s', async (named, { request, upstream }) => {
    const framing = named === 'Content-Length' ? ['Content-Length: 5'] : ['Transfer-Encoding: chunked'];
    const body = named === 'Content-Length' ? 'abcde' : '5\r\nabcde\r\n0\r\n\r\n';
    const answer = await request([`Connection: keep-alive, ${named}`, ...framing], body);
    expect(answer.status).toBe(200);
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0].body).toBe('abcde');
    // Nothing of the body was read by the upstream as a request of its own.
    expect((await request([])).status).toBe(200);
    expect(upstream.requests.map((r) => r.url)).toEqual(['/v2/echo', '/v2/echo']);
  });

  test('a transfer coding other than chunked is refused with 400 JSON and not forwarded', async ({ request, upstream }) => {
    const answer = await request(['Transfer-Encoding: gzip, chunked'], '3\r\nabc\r\n0\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body.toString()).error.code).toBe('UNSUPPORTED_TRANSFER_ENCODING');
    expect(upstream.requests).toHaveLength(0);
  });

  test('an HTTP/1.0 request gets X-Forwarded-Host from its Host, never an undefined value', async ({ request, upstream }) => {
    const answer = await request(['Connection: keep-alive'], '', 'GET', 'HTTP/1.0');
    expect(answer.status).toBe(200);
    expect(upstream.requests[0].headers).toMatchObject({ 'x-forwarded-host': 'localhost', 'x-forwarded-proto': 'http' });
  });
});

describe('response fields the browser never receives', () => {
  test('hop-by-hop fields of the upstream answer, and the fields its Connection names, stay behind', async ({ publicDir }) => {
    const chatty = await startFakeUpstream((_req, res) => {
      res.writeHead(200, {
        'Content-Type': 'application/json',
        Connection: 'keep-alive, X-Upstream-Hop',
        'X-Upstream-Hop': 'internal',
        'Keep-Alive': 'timeout=60',
        'Proxy-Authenticate': 'Basic realm="upstream"',
        'Proxy-Connection': 'keep-alive',
        Upgrade: 'h2c',
        Trailer: 'X-Checksum',
        'X-Kept': 'yes',
      });
      res.end('{"ok":true}');
    });
    const target = await listen(createApp(testConfig({ UPSTREAM_URL: chatty.url }), { publicDir: publicDir.dir }));
    try {
      const targetPort = Number(new URL(target.url).port);
      for (const version of ['HTTP/1.1', 'HTTP/1.0']) {
        const answer = await rawRequest(targetPort, `GET /v2/x ${version}\r\nHost: localhost\r\n\r\n`);
        expect(answer.status, version).toBe(200);
        expect(JSON.parse(answer.body.toString()), version).toEqual({ ok: true });
        expect(answer.headers['x-kept'], version).toEqual(['yes']);
        for (const name of ['x-upstream-hop', 'keep-alive', 'proxy-authenticate', 'proxy-connection', 'upgrade', 'trailer']) {
          // Node adds its own Keep-Alive for an HTTP/1.1 keep-alive connection; the upstream's 60 s must not pass.
          if (name === 'keep-alive') expect(answer.headers[name] ?? [], version).not.toContain('timeout=60');
          else expect(answer.headers, `${version} ${name}`).not.toHaveProperty(name);
        }
      }
    } finally {
      await target.close();
      await chatty.close();
    }
  });
});

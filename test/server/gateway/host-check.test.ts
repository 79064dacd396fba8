import { describe, expect } from 'vitest';
import request from 'supertest';
import { createApp } from '../../../server/app.ts';
import { hostAllowList, isAllowedHost, parseHost } from '../../../server/middleware/host-check.ts';
import { listen, testConfig } from '../../helpers/gateway-fixtures.ts';
import { ownUpstreamTest } from '../../helpers/gateway-test.ts';
import { rawRequest } from '../../helpers/gateway-stack.ts';

/* The Host allow-list and the request line: both answered with 400 JSON before anything else runs. */

// Each test its own upstream, so it sees only its own requests; `gatewayPort(env)` starts a gateway in front of it.
const test = ownUpstreamTest().extend('gatewayPort', ({ publicDir, upstream }, { onCleanup }) => {
  const servers: { close: () => Promise<void> }[] = [];
  onCleanup(async () => {
    for (const server of servers) await server.close();
  });
  return async (env: Record<string, string> = {}): Promise<number> => {
    const server = await listen(createApp(testConfig({ UPSTREAM_URL: upstream.url, ...env }), { publicDir: publicDir.dir }));
    servers.push(server);
    return Number(new URL(server.url).port);
  };
});

const raw = async (port: number, requestLine: string, lines: string[]) => {
  const answer = await rawRequest(port, `${requestLine}\r\n${lines.map((l) => `${l}\r\n`).join('')}\r\n`);
  const body = answer.body.length ? JSON.parse(answer.body.toString()) : undefined;
  return { status: answer.status, code: body?.error?.code as string | undefined, headers: answer.headers };
};

describe('which hosts are allowed', () => {
  test('without PUBLIC_URL and ALLOWED_HOSTS: localhost, 127.0.0.1, [::1] and HOST', () => {
    expect(hostAllowList(testConfig())).toEqual(['localhost', '127.0.0.1', '[::1]']);
    expect(hostAllowList(testConfig({ HOST: '10.1.2.3' }))).toEqual(['localhost', '127.0.0.1', '[::1]', '10.1.2.3']);
    expect(hostAllowList(testConfig({ HOST: '::1' }))).toEqual(['localhost', '127.0.0.1', '[::1]', '[::1]']);
    // A wildcard listen address is no host name anybody sends.
    expect(hostAllowList(testConfig({ HOST: '0.0.0.0' }))).toEqual(['localhost', '127.0.0.1', '[::1]']);
  });

  test("with PUBLIC_URL and ALLOWED_HOSTS: PUBLIC_URL's host plus the list, nothing else", () => {
    expect(hostAllowList(testConfig({ PUBLIC_URL: 'https://Coach.Example.org' }))).toEqual(['coach.example.org']);
    expect(hostAllowList(testConfig({ PUBLIC_URL: 'https://coach.example.org', ALLOWED_HOSTS: 'gateway, .intern.example, 10.0.0.5, ::1' }))).toEqual([
      'coach.example.org',
      'gateway',
      '.intern.example',
      '10.0.0.5',
      '[::1]',
    ]);
    expect(hostAllowList(testConfig({ ALLOWED_HOSTS: 'coach.example.org' }))).toEqual(['coach.example.org']);
  });

  test('ports are ignored, names compared without case and trailing dot, a leading dot allows subdomains', () => {
    const list = ['coach.example.org', '.intern.example', '[::1]'];
    for (const host of ['coach.example.org', 'COACH.example.org:8443', 'coach.example.org.', 'intern.example', 'a.b.intern.example:1', '[::1]:8080']) {
      expect(isAllowedHost(parseHost(host)!, list), host).toBe(true);
    }
    for (const host of ['example.org', 'evilcoach.example.org', 'coach.example.org.evil', 'xintern.example', '[::2]']) {
      expect(isAllowedHost(parseHost(host)!, list), host).toBe(false);
    }
  });

  test('malformed hosts do not parse', () => {
    for (const host of ['', ' ', 'local host', 'localhost@evil.example', 'localhost:99999', 'localhost:', '[::1', 'a..b', 'exa/mple', 'x:1:2', 'é.example']) {
      expect(parseHost(host), JSON.stringify(host)).toBeNull();
    }
  });
});

describe('the Host header', () => {
  test.for<[string, string, string[]]>([
    ['missing (HTTP/1.0)', 'GET /v2/news HTTP/1.0', []],
    ['empty', 'GET /v2/news HTTP/1.1', ['Host:']],
    ['duplicate', 'GET /v2/news HTTP/1.1', ['Host: localhost', 'Host: localhost']],
    ['duplicate with another host', 'GET /login HTTP/1.1', ['Host: localhost', 'Host: evil.example']],
    ['malformed', 'GET /v2/news HTTP/1.1', ['Host: local host']],
    ['with user info', 'GET / HTTP/1.1', ['Host: localhost@evil.example']],
    ['with a port out of range', 'GET /v2/news HTTP/1.1', ['Host: localhost:70000']],
  ])('%s: 400 INVALID_HOST, and nothing is forwarded', async ([_name, line, hosts], { upstream, gatewayPort }) => {
    const port = await gatewayPort();
    const answer = await raw(port, line, hosts);
    expect(answer).toMatchObject({ status: 400, code: 'INVALID_HOST' });
    expect(upstream.requests).toHaveLength(0);
  });

  test('a host not on the list gets 400 before anything else runs: no XSRF cookie, no 403, nothing forwarded', async ({ upstream, gatewayPort }) => {
    const port = await gatewayPort({ PUBLIC_URL: 'https://coach.example.org' });
    for (const line of [
      'GET / HTTP/1.1',
      'GET /login HTTP/1.1',
      'GET /v2/news HTTP/1.1',
      'POST /v2/auth/forgot-password HTTP/1.1',
      `GET /assets/x.js HTTP/1.1`,
    ]) {
      const answer = await raw(port, line, ['Host: evil.example']);
      expect(answer, line).toMatchObject({ status: 400, code: 'HOST_NOT_ALLOWED' });
      expect(answer.headers['set-cookie'], line).toBeUndefined();
    }
    expect((await raw(port, 'TRACE /v2/news HTTP/1.1', ['Host: evil.example'])).code).toBe('HOST_NOT_ALLOWED');
    expect(upstream.requests).toHaveLength(0);
    expect((await raw(port, 'GET /v2/news HTTP/1.1', ['Host: coach.example.org'])).status).toBe(200);
  });

  test('without PUBLIC_URL the defaults answer, on any port', async ({ gatewayPort }) => {
    const port = await gatewayPort();
    for (const host of ['localhost', 'localhost:8080', '127.0.0.1:1234', '[::1]:8080']) {
      expect((await raw(port, 'GET /v2/news HTTP/1.1', [`Host: ${host}`])).status, host).toBe(200);
    }
    expect((await raw(port, 'GET /v2/news HTTP/1.1', ['Host: 10.0.0.9'])).code).toBe('HOST_NOT_ALLOWED');
  });

  test('/healthz and /readyz answer for any well-formed host (probes use the pod address), not for a malformed one', async ({ gatewayPort }) => {
    const port = await gatewayPort({ PUBLIC_URL: 'https://coach.example.org' });
    expect((await raw(port, 'GET /healthz HTTP/1.1', ['Host: 10.42.0.17:8080'])).status).toBe(200);
    expect((await raw(port, 'GET /readyz HTTP/1.1', ['Host: 10.42.0.17:8080'])).status).toBeLessThan(400);
    expect(await raw(port, 'GET /healthz HTTP/1.1', ['Host:'])).toMatchObject({ status: 400, code: 'INVALID_HOST' });
    expect((await raw(port, 'GET /healthz/x HTTP/1.1', ['Host: 10.42.0.17'])).code).toBe('HOST_NOT_ALLOWED');
  });

  test('with TRUST_PROXY the X-Forwarded-Host of the proxy is checked against the same list', async ({ upstream, gatewayPort }) => {
    const port = await gatewayPort({ PUBLIC_URL: 'https://coach.example.org', TRUST_PROXY: 'loopback' });
    expect(await raw(port, 'GET /v2/news HTTP/1.1', ['Host: gateway:8080', 'X-Forwarded-Host: evil.example'])).toMatchObject({
      status: 400,
      code: 'HOST_NOT_ALLOWED',
    });
    expect(await raw(port, 'GET /v2/news HTTP/1.1', ['Host: coach.example.org', 'X-Forwarded-Host: evil.example, coach.example.org'])).toMatchObject({
      status: 400,
      code: 'HOST_NOT_ALLOWED',
    });
    expect(await raw(port, 'GET /v2/news HTTP/1.1', ['Host: coach.example.org', 'X-Forwarded-Host: a b'])).toMatchObject({ status: 400, code: 'INVALID_HOST' });
    expect(upstream.requests).toHaveLength(0);
    expect((await raw(port, 'GET /v2/news HTTP/1.1', ['Host: gateway:8080', 'X-Forwarded-Host: coach.example.org'])).status).toBe(200);
    expect(upstream.requests[0].headers['x-forwarded-host']).toBe('coach.example.org');
  });

  test('without TRUST_PROXY a client X-Forwarded-Host decides nothing and is replaced', async ({ upstream, gatewayPort }) => {
    const port = await gatewayPort({ PUBLIC_URL: 'https://coach.example.org' });
    expect((await raw(port, 'GET /v2/news HTTP/1.1', ['Host: coach.example.org', 'X-Forwarded-Host: evil.example'])).status).toBe(200);
    expect(upstream.requests[0].headers['x-forwarded-host']).toBe('coach.example.org');
  });
});

describe('the request line', () => {
  test('an absolute-form target is served for an allowed host, as its path, and refused for another host', async ({ upstream, gatewayPort }) => {
    const port = await gatewayPort();
    expect((await raw(port, 'GET http://localhost:8080/v2/news?x=1 HTTP/1.1', ['Host: localhost'])).status).toBe(200);
    expect(upstream.requests[0].url).toBe('/v2/news?x=1');
    expect(upstream.requests[0].headers['x-forwarded-host']).toBe('localhost:8080');
    expect(await raw(port, 'GET http://evil.example/v2/news HTTP/1.1', ['Host: localhost'])).toMatchObject({ status: 400, code: 'HOST_NOT_ALLOWED' });
    expect(await raw(port, 'GET http://user@localhost/v2/news HTTP/1.1', ['Host: localhost'])).toMatchObject({ status: 400, code: 'INVALID_HOST' });
    expect(upstream.requests).toHaveLength(1);
  });

  test.for<[string, string]>([
    ['GET * HTTP/1.1', 'INVALID_REQUEST_TARGET'],
    ['OPTIONS * HTTP/1.1', 'INVALID_REQUEST_TARGET'],
    ['GET /v2/../v2/news HTTP/1.1', 'INVALID_REQUEST_TARGET'],
    ['GET /v2/%2e%2e/%2E%2E/package.json HTTP/1.1', 'INVALID_REQUEST_TARGET'],
    ['GET /v2/app-settings/asset/..%2f..%2fpackage.json HTTP/1.1', 'INVALID_REQUEST_TARGET'],
    ['GET /v2/news/.%2e%5cx HTTP/1.1', 'INVALID_REQUEST_TARGET'],
    ['GET /assets/./main.js HTTP/1.1', 'INVALID_REQUEST_TARGET'],
    ['GET /v2/news HTTP/0.9', 'UNSUPPORTED_HTTP_VERSION'],
  ])('%s: 400 %s, nothing forwarded', async ([line, code], { upstream, gatewayPort }) => {
    const port = await gatewayPort();
    expect(await raw(port, line, ['Host: localhost'])).toMatchObject({ status: 400, code });
    expect(upstream.requests).toHaveLength(0);
  });

  test.for(['TRACE', 'PROPFIND', 'QUERY', 'M-SEARCH', 'PURGE'])(
    '%s is refused with 405 JSON and an Allow header, never forwarded',
    async (method, { upstream, gatewayPort }) => {
      const port = await gatewayPort();
      for (const target of ['/v2/news', '/login']) {
        const answer = await raw(port, `${method} ${target} HTTP/1.1`, ['Host: localhost', 'X-Secret-Probe: echo-canary']);
        expect(answer, `${method} ${target}`).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED' });
        expect(answer.headers.allow).toEqual(['GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS']);
      }
      expect(upstream.requests).toHaveLength(0);
    },
  );

  test('OPTIONS is forwarded under /v2', async ({ upstream, gatewayPort }) => {
    const port = await gatewayPort();
    expect((await raw(port, 'OPTIONS /v2/news HTTP/1.1', ['Host: localhost'])).status).toBe(200);
    expect(upstream.requests[0].method).toBe('OPTIONS');
  });

  test('dots inside a segment and encoded slashes in an id are fine', async ({ gatewayPort }) => {
    const port = await gatewayPort();
    for (const target of ['/v2/news/a.b', '/v2/news/..x', '/v2/sync/a%2Fb', '/v2/news/...']) {
      expect((await raw(port, `GET ${target} HTTP/1.1`, ['Host: localhost'])).status, target).toBe(200);
    }
  });

  test('supertest requests (Host 127.0.0.1:port) pass as before', async ({ upstream, publicDir }) => {
    const res = await request(createApp(testConfig({ UPSTREAM_URL: upstream.url }), { publicDir: publicDir.dir })).get('/v2/news');
    expect(res.status).toBe(200);
  });
});

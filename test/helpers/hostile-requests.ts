/*
 * The hostile-request corpus: raw HTTP requests built as a product of lists (methods x header sets x targets x
 * versions, plus pipelined pairs), so one more odd header, target or version is one more line here. raw-http.ts
 * sends them and reads the answers.
 */

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT', 'PROPFIND', 'PRI', 'QUERY', 'get', 'M-SEARCH'];

export const VERSIONS = ['HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/0.9', 'HTTP/1.7'];

/** Targets; ASSET is replaced by a real hashed asset of the build. */
export const ASSET = '{asset}';
export const TARGETS = [
  '/',
  '/login',
  ASSET,
  '/assets/missing-AAAAAAAA.js',
  '/v2/app-settings/version',
  '/v2/news',
  '/v2/patients?filter=%7B%22limit%22%3A1%7D',
  'http://localhost/v2/app-settings/version',
  'http://evil.example/v2/app-settings/version',
  'localhost:80',
  '*',
  '/v2/../v2/app-settings/version',
  '/v2/app-settings/%2e%2e/%2e%2e/package.json',
  '/assets/..%2f..%2fpackage.json',
  '/healthz',
];

/** A header that a header set may name in Connection: a proxy must drop it like any hop-by-hop field. */
export const HOP_MARKER = 'x-hop-marker';

export interface HeaderSet {
  name: string;
  lines: string[];
  /** Host lines; default one `Host: localhost`. */
  host?: string[];
  /** Replaces the Cookie line the corpus otherwise sends (the XSRF cookies). */
  cookie?: string | null;
  body?: string;
  /** The body the upstream must receive, decoded, when this request reaches it. */
  upstreamBody?: string;
  /** Hop-by-hop or forged forwarding fields that the upstream must receive this request without. */
  reachesUpstream?: boolean;
}

const big = (n: number) => 'x'.repeat(n);
export const XSRF_SID_SAMPLE = '0123456789abcdef0123456789abcdef';

export const HEADER_SETS: HeaderSet[] = [
  { name: 'plain', lines: [], reachesUpstream: true },
  { name: 'Trailer', lines: ['Trailer: X-Foo'], reachesUpstream: true },
  { name: 'TE trailers', lines: ['TE: trailers'], reachesUpstream: true },
  { name: 'TE named in Connection', lines: ['Connection: TE', 'TE: gzip'], reachesUpstream: true },
  { name: 'Upgrade without Connection', lines: ['Upgrade: websocket'], reachesUpstream: true },
  {
    name: 'websocket Upgrade',
    lines: ['Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version: 13'],
    reachesUpstream: true,
  },
  { name: 'h2c Upgrade', lines: ['Connection: Upgrade, HTTP2-Settings', 'Upgrade: h2c', 'HTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA'], reachesUpstream: true },
  { name: 'HTTP2-Settings alone', lines: ['HTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA'], reachesUpstream: true },
  { name: 'Keep-Alive', lines: ['Connection: keep-alive', 'Keep-Alive: timeout=5, max=1000'], reachesUpstream: true },
  { name: 'Proxy-Connection', lines: [`Proxy-Connection: keep-alive, ${HOP_MARKER}`, `${HOP_MARKER}: named-in-proxy-connection`], reachesUpstream: true },
  { name: 'Proxy-Authorization', lines: ['Proxy-Authorization: Basic dXNlcjpwYXNz'], reachesUpstream: true },
  { name: 'header named in Connection', lines: [`Connection: close, ${HOP_MARKER}`, `${HOP_MARKER}: named-in-connection`], reachesUpstream: true },
  { name: 'Cookie named in Connection', lines: ['Connection: Cookie'], reachesUpstream: true },
  {
    name: 'Expect 100-continue',
    lines: ['Expect: 100-continue', 'Content-Type: application/json', 'Content-Length: 2'],
    body: '{}',
    upstreamBody: '{}',
    reachesUpstream: true,
  },
  { name: 'Expect unknown', lines: ['Expect: teapot'] },
  { name: 'Content-Encoding on a GET', lines: ['Content-Encoding: gzip'], reachesUpstream: true },
  {
    name: 'nonsense Accept-Encoding',
    lines: ['Accept-Encoding: gzip;q=2, br;q=-1, *;q=NaN, identity;q=0, deflate;q=1e9, ;q=, x;q=0.5.5'],
    reachesUpstream: true,
  },
  {
    name: 'forged X-Forwarded-*',
    lines: ['X-Forwarded-Host: evil.example', 'X-Forwarded-Proto: https', 'X-Forwarded-For: 6.6.6.6', 'X-Forwarded-Port: 1', 'X-Real-IP: 6.6.6.6'],
    reachesUpstream: true,
  },
  { name: 'forged Forwarded', lines: ['Forwarded: for=6.6.6.6;host=evil.example;proto=https'], reachesUpstream: true },
  { name: 'empty X-Forwarded-Host', lines: ['X-Forwarded-Host:'], reachesUpstream: true },
  { name: 'no Host', lines: [], host: [] },
  { name: 'empty Host', lines: [], host: ['Host:'] },
  { name: 'duplicate Host', lines: [], host: ['Host: localhost', 'Host: evil.example'] },
  { name: 'foreign Host', lines: [], host: ['Host: evil.example'] },
  { name: 'invalid Host', lines: [], host: ['Host: local host'] },
  { name: 'Host with user info', lines: [], host: ['Host: localhost@evil.example'] },
  { name: 'Host with a port out of range', lines: [], host: ['Host: localhost:99999'] },
  { name: 'huge cookie', lines: [], cookie: `big=${big(12_000)}; xsrf-sid=${XSRF_SID_SAMPLE}`, reachesUpstream: true },
  { name: 'head over the limit', lines: [`X-Pad: ${big(20_000)}`] },
  { name: 'conflicting Content-Length', lines: ['Content-Length: 4', 'Content-Length: 5'], body: 'abcd' },
  { name: 'Content-Length and chunked', lines: ['Content-Length: 4', 'Transfer-Encoding: chunked'], body: '4\r\nabcd\r\n0\r\n\r\n' },
  { name: 'negative Content-Length', lines: ['Content-Length: -1'] },
  {
    name: 'Content-Length named in Connection',
    lines: ['Connection: Content-Length', 'Content-Length: 5'],
    body: 'abcde',
    upstreamBody: 'abcde',
    reachesUpstream: true,
  },
  {
    name: 'chunked named in Connection',
    lines: ['Connection: Transfer-Encoding', 'Transfer-Encoding: chunked'],
    body: '5\r\nabcde\r\n0\r\n\r\n',
    upstreamBody: 'abcde',
    reachesUpstream: true,
  },
  {
    name: 'chunked body',
    lines: ['Transfer-Encoding: chunked', 'Content-Type: application/json'],
    body: '2\r\n{}\r\n0\r\n\r\n',
    upstreamBody: '{}',
    reachesUpstream: true,
  },
  {
    name: 'chunked body with trailer',
    lines: ['Transfer-Encoding: chunked', 'Trailer: X-Check'],
    body: '3\r\nabc\r\n0\r\nX-Check: 1\r\n\r\n',
    upstreamBody: 'abc',
    reachesUpstream: true,
  },
  { name: 'gzip, chunked', lines: ['Transfer-Encoding: gzip, chunked'], body: '3\r\nabc\r\n0\r\n\r\n' },
];

export interface Xsrf {
  cookie: string;
  token: string;
}

export interface CorpusCase {
  id: string;
  label: string;
  bytes: string;
  /** The methods of the requests in `bytes`, in order (HEAD answers have no body). */
  methods: string[];
  headerSet: HeaderSet;
  target: string;
  version: string;
}

function requestBytes(id: string, method: string, target: string, version: string, set: HeaderSet, xsrf: Xsrf): string {
  const cookie = set.cookie === undefined ? xsrf.cookie : set.cookie === null ? undefined : `${set.cookie}; ${xsrf.cookie}`;
  const lines = [
    `${method} ${target} ${version}`,
    ...(set.host ?? ['Host: localhost']),
    ...(cookie ? [`Cookie: ${cookie}`] : []),
    `X-XSRF-TOKEN: ${xsrf.token}`,
    `X-Corpus-Case: ${id}`,
    ...set.lines,
  ];
  return `${lines.join('\r\n')}\r\n\r\n${set.body ?? ''}`;
}

/** The well-formed request of a pipelined pair; its case id carries an `n`. */
const normal = (id: string) => `GET /v2/app-settings/version HTTP/1.1\r\nHost: localhost\r\nX-Corpus-Case: ${id}n\r\n\r\n`;

/**
 * Every header set meets every target and every version (full product); the method is chosen so that every
 * pair (method and header set, method and target, method and version) occurs too, which keeps the count near
 * |headers| x |targets| x |versions| instead of multiplying it by 14 methods. Then every header set as a plain
 * GET and POST to /v2, and once as the second and once as the first request of a pipelined pair.
 */
export function buildCorpus(xsrf: Xsrf, asset: string): CorpusCase[] {
  const cases: CorpusCase[] = [];
  HEADER_SETS.forEach((set, h) => {
    TARGETS.forEach((rawTarget, t) => {
      const target = rawTarget === ASSET ? asset : rawTarget;
      VERSIONS.forEach((version, v) => {
        const method = METHODS[(h + t + v) % METHODS.length];
        const id = `c${cases.length}`;
        cases.push({
          id,
          label: `${method} ${target} ${version} [${set.name}]`,
          bytes: requestBytes(id, method, target, version, set, xsrf),
          methods: [method],
          headerSet: set,
          target,
          version,
        });
      });
    });
  });
  // The product above gives some header sets only methods or versions the gateway refuses before the proxy: every
  // set also goes out as a plain GET and POST to /v2 over 1.1 and 1.0, so the upstream side is tried for all.
  for (const set of HEADER_SETS) {
    for (const method of ['GET', 'POST']) {
      for (const version of ['HTTP/1.1', 'HTTP/1.0']) {
        const id = `c${cases.length}`;
        const target = '/v2/app-settings/version';
        cases.push({
          id,
          label: `${method} ${target} ${version} [${set.name}]`,
          bytes: requestBytes(id, method, target, version, set, xsrf),
          methods: [method],
          headerSet: set,
          target,
          version,
        });
      }
    }
  }
  HEADER_SETS.forEach((set, h) => {
    const target = h % 2 === 0 ? '/v2/app-settings/version' : '/login';
    const method = h % 3 === 0 ? 'POST' : 'GET';
    for (const hostileFirst of [false, true]) {
      const id = `c${cases.length}`;
      const hostile = requestBytes(id, method, target, 'HTTP/1.1', set, xsrf);
      cases.push({
        id,
        label: `pipelined ${hostileFirst ? `${method} ${target} [${set.name}] then a normal GET` : `normal GET then ${method} ${target} [${set.name}]`}`,
        bytes: hostileFirst ? hostile + normal(id) : normal(id) + hostile,
        methods: hostileFirst ? [method, 'GET'] : ['GET', method],
        headerSet: set,
        target,
        version: 'HTTP/1.1',
      });
    }
  });
  return cases;
}

import { expect } from 'vitest';
import { startFakeUpstream } from '../../helpers/gateway-fixtures.ts';
import { gatewayProcessTest } from '../../helpers/gateway-test.ts';
import { XSRF_SECRET, rawRequest } from '../../helpers/gateway-stack.ts';
import { PERMISSIONS_POLICY } from '../../../server/middleware/security-headers.ts';

/* Requests Node's parser refuses before Express sees them still get the JSON error body, from the real process. */

const test = gatewayProcessTest(startFakeUpstream, { XSRF_SECRET, LOG_LEVEL: 'warn' });
// The process starts here, with a hook's time rather than the first test's.
test.beforeAll(({ gateway: _ }) => {}, 60_000);

test.for<[string, string, number, string]>([
  ['a bogus HTTP version', 'GET /v2/news HTTP/1.2\r\nHost: localhost\r\n\r\n', 400, 'MALFORMED_REQUEST'],
  ['a lower-case method', 'get /v2/news HTTP/1.1\r\nHost: localhost\r\n\r\n', 400, 'MALFORMED_REQUEST'],
  ['an authority-form target on a GET', 'GET localhost:80 HTTP/1.1\r\nHost: localhost\r\n\r\n', 400, 'MALFORMED_REQUEST'],
  ['the HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 400, 'MALFORMED_REQUEST'],
  ['conflicting lengths', 'POST /v2/news HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4\r\nContent-Length: 5\r\n\r\nabcd', 400, 'MALFORMED_REQUEST'],
  [
    'a length and chunked',
    'POST /v2/news HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n0\r\n\r\n',
    400,
    'MALFORMED_REQUEST',
  ],
  ['an Expect other than 100-continue', 'GET /v2/news HTTP/1.1\r\nHost: localhost\r\nExpect: teapot\r\n\r\n', 417, 'EXPECTATION_FAILED'],
  ['a head over the limit', `GET /v2/news HTTP/1.1\r\nHost: localhost\r\nX-Pad: ${'p'.repeat(20_000)}\r\n\r\n`, 431, 'HEADERS_TOO_LARGE'],
])('%s: the JSON error format, the connection closed, the process serving', async ([_name, bytes, status, code], { gateway, upstream }) => {
  // An over-long head is refused while the client may still be writing it; one of three tries must show the answer.
  let answer = await rawRequest(gateway.port, bytes);
  for (let i = 0; i < 2 && answer.outcome !== 'answered'; i++) answer = await rawRequest(gateway.port, bytes);
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toEqual(['application/json']);
  expect(answer.headers.connection).toEqual(['close']);
  // The same Permissions-Policy as every answer Express writes (docs/contract.md, security headers).
  expect(answer.headers['permissions-policy']).toEqual([PERMISSIONS_POLICY]);
  expect(JSON.parse(answer.body.toString())).toEqual({ error: expect.objectContaining({ statusCode: status, code }) });
  expect(answer.raw.toString('latin1')).not.toContain('ppppppppp');
  expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
  expect(upstream.requests).toHaveLength(0);
});

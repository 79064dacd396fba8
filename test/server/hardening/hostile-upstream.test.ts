import { describe, expect } from 'vitest';
import { gatewayProcessTest } from '../../helpers/gateway-test.ts';
import { HOSTILE_ANSWERS, startHostileUpstream } from '../../helpers/hostile-upstream.ts';
import { XSRF_SECRET, rawRequest } from '../../helpers/gateway-stack.ts';

/*
 * Somebody else's upstream can answer oddly too. Whatever it sends, the real gateway process answers the browser
 * with the upstream's answer cleaned of hop-by-hop fields, or 502, or (when a body broke off midway) a cut
 * connection; it never answers with an error of its own other than 502/504, and it goes on serving.
 */

const test = gatewayProcessTest(startHostileUpstream, { XSRF_SECRET, LOG_LEVEL: 'fatal', PROXY_TIMEOUT_MS: '2000' });
// The process starts here, with a hook's time rather than the first test's.
test.beforeAll(({ gateway: _ }) => {}, 60_000);

const HOP_BY_HOP = ['x-hop', 'upgrade', 'proxy-authenticate', 'te', 'trailer'];
/** Answers the gateway may pass on; everything else must become a 502 or a cut connection. */
const PASSED_ON: Record<string, number> = { 'early-hints': 200, trailers: 200, 'hop-by-hop': 200, 'close-delimited': 200, 'status-999': 999 };

describe.each(['HTTP/1.1', 'HTTP/1.0'])('over %s', (version) => {
  test.for(Object.keys(HOSTILE_ANSWERS))('an upstream answer with %s', async (kind, { gateway }) => {
    for (const method of ['GET', 'HEAD']) {
      const answer = await rawRequest(gateway.port, `${method} /v2/${kind} ${version}\r\nHost: localhost\r\n\r\n`, 5000, method);
      const label = `${method} ${kind}`;
      expect(answer.outcome, label).not.toBe('timeout');
      // (These answers carry a body even for HEAD, which is itself broken: a 502 is right for that too.)
      if (PASSED_ON[kind] !== undefined && !(method === 'HEAD' && answer.status === 502)) {
        expect(answer.status, label).toBe(PASSED_ON[kind]);
        if (method === 'GET') expect(JSON.parse(answer.body.toString()), label).toEqual({ ok: true });
        for (const name of HOP_BY_HOP) expect(answer.headers, `${label}: ${name}`).not.toHaveProperty(name);
        expect(answer.headers['keep-alive'] ?? [], label).not.toContain('timeout=1');
      } else if (answer.outcome === 'answered' && answer.status !== 0) {
        // A broken answer whose head was fine may have been passed on before it broke: then the connection is cut.
        if (answer.status !== 502) expect(['short-body'], `${label}: ${answer.status}`).toContain(kind);
      }
    }
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    expect(gateway.child.exitCode).toBeNull();
  });
});

import { describe, expect } from 'vitest';
import { Agent, request as httpRequest } from 'node:http';
import { startFakeUpstream } from '../../helpers/gateway-fixtures.ts';
import type { FakeUpstream } from '../../helpers/gateway-fixtures.ts';
import { spawnTest } from '../../helpers/gateway-test.ts';

// Each test its own fake upstream (it counts the requests that reached it) and its own gateway processes.
const test = spawnTest
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixtures a fixture needs from its first parameter
  .extend('upstream', async ({}, { onCleanup }): Promise<FakeUpstream> => {
    const upstream = await startFakeUpstream();
    onCleanup(() => upstream.close());
    return upstream;
  })
  /** Resolves once the fake upstream has received a request (the proxied call is in flight). */
  .extend('upstreamReceived', ({ upstream }) => async (count: number): Promise<void> => {
    const started = Date.now();
    while (upstream.requests.length < count) {
      if (Date.now() - started > 5000) throw new Error('request never reached the upstream');
      await new Promise((resolve) => setImmediate(resolve));
    }
  });

function get(url: string, agent?: Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe('graceful shutdown', () => {
  test.for(['SIGTERM', 'SIGINT'] as const)(
    'on %s a request in flight completes, new connections are refused, exit code 0',
    async (signal, { spawn, upstreamReceived, upstream }) => {
      const gateway = await spawn({ UPSTREAM_URL: upstream.url, SHUTDOWN_GRACE_MS: '5000' });
      const inFlight = get(`${gateway.url}/v2/slow?ms=600`);
      await upstreamReceived(1);
      gateway.child.kill(signal);
      // Once shutdown has begun the listening socket is closed.
      await expect
        .poll(
          () =>
            get(`${gateway.url}/healthz`).then(
              () => 'accepted',
              (e: NodeJS.ErrnoException) => e.code,
            ),
          { timeout: 2000 },
        )
        .toBe('ECONNREFUSED');
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body).url).toBe('/v2/slow?ms=600');
      expect(await gateway.exited).toEqual({ code: 0, signal: null });
      expect(gateway.stdout()).toContain('"msg":"stopped"');
    },
  );

  test('an idle keep-alive connection does not hold the shutdown up', async ({ spawn, upstream }) => {
    const gateway = await spawn({ UPSTREAM_URL: upstream.url, SHUTDOWN_GRACE_MS: '20000' });
    const agent = new Agent({ keepAlive: true });
    expect((await get(`${gateway.url}/healthz`, agent)).status).toBe(200);
    const started = Date.now();
    gateway.child.kill('SIGTERM');
    expect(await gateway.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(2000);
    agent.destroy();
  });

  test('a request slower than the grace period is cut off and the process still exits 0', async ({ spawn, upstreamReceived, upstream }) => {
    const gateway = await spawn({ UPSTREAM_URL: upstream.url, SHUTDOWN_GRACE_MS: '300' });
    const inFlight = get(`${gateway.url}/v2/slow?ms=10000`).then(
      () => 'answered',
      () => 'cut',
    );
    await upstreamReceived(1);
    const started = Date.now();
    gateway.child.kill('SIGTERM');
    expect(await gateway.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await inFlight).toBe('cut');
  });
});

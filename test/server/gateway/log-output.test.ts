import { describe, expect } from 'vitest';
import { startFakeUpstream } from '../../helpers/gateway-fixtures.ts';
import type { FakeUpstream } from '../../helpers/gateway-fixtures.ts';
import { spawnTest } from '../../helpers/gateway-test.ts';

/** The gateway's stdout (server/shared/logger.ts batchedStdout): lines in batches, but none held back for long. */
const test = spawnTest
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixtures a fixture needs from its first parameter
  .extend('upstream', async ({}, { onCleanup }): Promise<FakeUpstream> => {
    const upstream = await startFakeUpstream();
    onCleanup(() => upstream.close());
    return upstream;
  });

const completions = (stdout: string) => stdout.split('\n').filter((line) => line.includes('"msg":"request completed"'));

describe("the gateway's log on stdout", () => {
  test('shows the start-up lines at once and a lone request without waiting for more', async ({ spawn, upstream }) => {
    const gateway = await spawn({ UPSTREAM_URL: upstream.url, LOG_LEVEL: 'info' });
    // Written before the gateway said it was up; read here from the pipe as it comes.
    await expect.poll(() => gateway.stdout(), { timeout: 5_000, interval: 20 }).toContain('"msg":"gateway listening"');
    expect((await fetch(`${gateway.url}/v2/news`)).status).toBe(200);
    // Far below the 4 KB a batch waits for: only the periodic flush brings it out (without it, never).
    await expect.poll(() => completions(gateway.stdout()).length, { timeout: 5_000, interval: 50 }).toBe(1);
    expect(JSON.parse(completions(gateway.stdout())[0])).toMatchObject({ req: { method: 'GET', url: '/v2/news' }, res: { statusCode: 200 } });
  });

  test('writes what is still buffered when it stops', async ({ spawn, upstream }) => {
    const gateway = await spawn({ UPSTREAM_URL: upstream.url, LOG_LEVEL: 'info' });
    for (let i = 0; i < 3; i++) expect((await fetch(`${gateway.url}/v2/news?i=${i}`)).status).toBe(200);
    gateway.child.kill('SIGTERM');
    expect(await gateway.exited).toEqual({ code: 0, signal: null });
    expect(completions(gateway.stdout())).toHaveLength(3);
  });
});

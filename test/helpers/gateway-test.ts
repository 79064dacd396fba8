import { test } from 'vitest';
import { type FakeUpstream, makePublicDir, startFakeUpstream } from './gateway-fixtures.ts';
import { type GatewayProcess, spawnGateway } from './gateway-process.ts';
import { type Stack, startStack } from './gateway-stack.ts';

/*
 * The gateway's surroundings as vitest fixtures, one of each for every test of a file: a small built client to serve
 * and a stand-in upstream. Vitest reads which fixtures a fixture needs from the destructuring of its first parameter,
 * hence the empty patterns.
 */

export type PublicDir = Awaited<ReturnType<typeof makePublicDir>>;

/** `publicDir`: a small dist/public like the build writes (makePublicDir), removed after the file's last test. */
export const publicDirTest = test.extend(
  'publicDir',
  { scope: 'file' },
  // biome-ignore lint/correctness/noEmptyPattern: see above
  async ({}, { onCleanup }): Promise<PublicDir> => {
    const publicDir = await makePublicDir();
    onCleanup(() => publicDir.cleanup());
    return publicDir;
  },
);

/** `publicDir` and `upstream`: a stand-in upstream (startFakeUpstream(handler)), closed after the file's last test. */
export const fakeUpstreamTest = (handler?: Parameters<typeof startFakeUpstream>[0]) =>
  // biome-ignore lint/correctness/noEmptyPattern: see above
  publicDirTest.extend('upstream', { scope: 'file' }, async ({}, { onCleanup }): Promise<FakeUpstream> => {
    const upstream = await startFakeUpstream(handler);
    onCleanup(() => upstream.close());
    return upstream;
  });

/**
 * `publicDir` for the file and `upstream`: a stand-in upstream of the test's own, closed after it, for tests that
 * count the requests it received.
 */
export const ownUpstreamTest = (handler?: Parameters<typeof startFakeUpstream>[0]) =>
  // biome-ignore lint/correctness/noEmptyPattern: see above
  publicDirTest.extend('upstream', async ({}, { onCleanup }): Promise<FakeUpstream> => {
    const upstream = await startFakeUpstream(handler);
    onCleanup(() => upstream.close());
    return upstream;
  });

/** Stops the gateway processes still running and waits until they have exited. */
export async function killAll(gateways: GatewayProcess[]): Promise<void> {
  for (const gateway of gateways) {
    if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGKILL');
    await gateway.exited;
  }
}

/** `spawn(env, options)`: the gateway as a process (spawnGateway) of the test's own, killed when the test ends. */
export const spawnTest = test.extend(
  'spawn',
  // biome-ignore lint/correctness/noEmptyPattern: see above
  ({}, { onCleanup }) => {
    const started: GatewayProcess[] = [];
    onCleanup(() => killAll(started));
    return async (...args: Parameters<typeof spawnGateway>): Promise<GatewayProcess> => {
      const gateway = await spawnGateway(...args);
      started.push(gateway);
      return gateway;
    };
  },
);

/**
 * `upstream` (started by `startUpstream`) and `gateway`: the gateway as a process in front of it with `env`, one of
 * each for every test of a file, stopped after its last test. Starting a process may take longer than a test may: a
 * file starts them in `test.beforeAll` with a hook's time.
 */
export function gatewayProcessTest<U extends { url: string; close: () => Promise<void> }>(startUpstream: () => Promise<U>, env: Record<string, string>) {
  return (
    test
      // biome-ignore lint/correctness/noEmptyPattern: see above
      .extend('upstream', { scope: 'file' }, async ({}, { onCleanup }): Promise<U> => {
        const upstream = await startUpstream();
        onCleanup(() => upstream.close());
        return upstream;
      })
      .extend('gateway', { scope: 'file' }, async ({ upstream }, { onCleanup }): Promise<GatewayProcess> => {
        const gateway = await spawnGateway({ UPSTREAM_URL: upstream.url, ...env });
        onCleanup(async () => {
          if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGTERM');
          await gateway.exited;
        });
        return gateway;
      })
  );
}

/**
 * `stack`: the gateway as a process with the built-in upstream and the demo data (startStack(env)), one for every test
 * of a file, stopped after its last test. Starting it may take longer than a test may: a file starts it in
 * `test.beforeAll` with a hook's time.
 */
export const stackTest = (env: Record<string, string> = {}) =>
  // biome-ignore lint/correctness/noEmptyPattern: see above
  test.extend('stack', { scope: 'file' }, async ({}, { onCleanup }): Promise<Stack> => {
    const stack = await startStack(env);
    onCleanup(async () => {
      await stack.stop();
    });
    return stack;
  });

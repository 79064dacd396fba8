import { test } from 'vitest';
import { createTestUpstream, type TestUpstream } from './upstream-app.ts';
import { issueToken } from '../../server/upstream/features/auth/repository.ts';
import { openStorage } from '../../server/upstream/db/index.ts';
import { seedDemo } from '../../server/upstream/seed/demo.ts';

/*
 * Upstreams as vitest fixtures: a test gets its own, started before it and closed after it, so a test that times out
 * keeps running against its own upstream, never against the next test's. Vitest reads which fixtures a fixture needs
 * from the destructuring of its first parameter, hence the empty patterns.
 */

type Options = Parameters<typeof createTestUpstream>[0];
/** The `upstream` fixture: starts one more upstream (with the test's options), closed when the test ends. */
export type StartUpstream = (options?: Options) => Promise<TestUpstream>;
export type Cleanup = { onCleanup: (cleanup: () => Promise<void>) => void };

/**
 * A login token of the coach with this id, as a sign-in issues it, without the password check: the scrypt of a real
 * login costs about 70 ms, the token 0.1 ms. For tests about something else than signing in.
 */
export async function signedIn(t: TestUpstream, coachId: string): Promise<string> {
  return (await issueToken(t.app.upstream, coachId, 'access', t.app.upstream.session.maxHours * 3600)).token;
}

/** Starts upstreams on demand and closes every one of them when the test (or file) ends. */
const starter =
  (options: Options) =>
  // biome-ignore lint/correctness/noEmptyPattern: see above
  async ({}, { onCleanup }: Cleanup) => {
    const started: TestUpstream[] = [];
    onCleanup(async () => {
      for (const t of started) await t.close();
    });
    const start: StartUpstream = async (own = options) => {
      const t = await createTestUpstream(own);
      started.push(t);
      return t;
    };
    return start;
  };

/**
 * `t`: a fresh upstream with the fixture (createTestUpstream(options)) for each test that asks for it.
 * `upstream(options)`: one more upstream, or one with the test's own options; closed after the test like `t`.
 */
export const upstreamTest = (options: Options = {}) => test.extend('upstream', starter(options)).extend('t', async ({ upstream }) => upstream());

/**
 * `t`: one upstream for every test of a file, for files whose tests only read, or write rows no other test reads, and
 * whose start-up would otherwise cost more than the tests.
 */
export const fileUpstreamTest = (options: Options = {}) =>
  test.extend('upstream', { scope: 'file' }, starter(options)).extend('t', { scope: 'file' }, async ({ upstream }) => upstream());

/**
 * `storage`: an in-memory database with the demo data seeded as of `now`, one for every test of a file. Seeding takes
 * seconds, more than a test's time on a busy machine: a file starts it in `test.beforeAll` with a hook's time.
 */
export const demoStorageTest = (now: Date) =>
  // biome-ignore lint/correctness/noEmptyPattern: see above
  test.extend('storage', { scope: 'file' }, async ({}, { onCleanup }) => {
    const storage = await openStorage({ dataDir: ':memory:' });
    onCleanup(() => storage.close());
    // seedDemo calls seedAppData once coaches and patients exist.
    await seedDemo(storage.db, { now });
    return storage;
  });

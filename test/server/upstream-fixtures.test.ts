import { describe, expect } from 'vitest';
import type { TestUpstream } from '../helpers/upstream-app.ts';
import { fileUpstreamTest, upstreamTest } from '../helpers/upstream-test.ts';

/*
 * The upstream fixtures (test/helpers/upstream-test.ts) the upstream tests build on: what one test starts is its own
 * and is closed once it ends, so nothing of it reaches the next test. The tests below run in order and look back at
 * what the test before them was given.
 */

const perTest = upstreamTest();
const perFile = fileUpstreamTest();
const coaches = (t: TestUpstream) => t.storage.db.selectFrom('coaches').select('id').execute();

describe('per test', () => {
  const test = perTest;
  const seen: TestUpstream[] = [];

  test('a test gets an upstream with the demo accounts, and more on demand', async ({ t, upstream }) => {
    expect((await coaches(t)).map((c) => c.id)).toContain('coach');
    const empty = await upstream({ fixture: false });
    expect(await coaches(empty)).toEqual([]);
    seen.push(t, empty);
  });

  test('the next test gets other upstreams, and those of the test before are closed', async ({ t }) => {
    expect(seen).not.toContain(t);
    for (const earlier of seen) await expect(coaches(earlier)).rejects.toThrow();
    expect((await coaches(t)).length).toBeGreaterThan(0);
  });
});

describe('per file', () => {
  const test = perFile;
  const seen: TestUpstream[] = [];

  test('the first test starts the file upstream', ({ t }) => {
    seen.push(t);
  });

  test('the next test of the file gets the same one, still open', async ({ t }) => {
    expect(t).toBe(seen[0]);
    expect((await coaches(t)).length).toBeGreaterThan(0);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as baseTest, describe, expect } from 'vitest';
import { sql } from 'kysely';
import { openStorage, type Storage } from '../../../server/upstream/db/index.ts';
import { runInScope } from '../../../server/upstream/db/request-scope.ts';
import { HttpError } from '../../../server/shared/http-error.ts';

/*
 * Every query has a time limit and stops when its request's client has gone, on SQLite (a file: reads run in
 * processes of their own) and (npm run test:postgres) PostgreSQL.
 */
const LIMIT_MS = 300;
const test = baseTest
  /** A database in a file of its own (reads then run in processes of their own) with the time limit. */
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixtures a fixture needs from its first parameter
  .extend('storage', { scope: 'file' }, async ({}, { onCleanup }): Promise<Storage> => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'query-limits-'));
    const storage = await openStorage({ dataDir: dir, queryTimeoutMs: LIMIT_MS });
    onCleanup(async () => {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    });
    await sql`create table cancel_probe (id text primary key)`.execute(storage.db);
    return storage;
  })
  .extend(
    'slowRead',
    { scope: 'file' },
    ({ storage }) =>
      () =>
        storage.dialect === 'postgres'
          ? sql`select pg_sleep(20) as n`.execute(storage.db)
          : sql`select (with recursive c(x) as (select 1 union all select x + 1 from c where x < 2000000000) select count(*) from c) as n`.execute(storage.db),
  )
  .extend(
    'quickRead',
    { scope: 'file' },
    ({ storage }) =>
      async () =>
        (await sql`select 1 as n`.execute(storage.db)).rows,
  );

async function failure(promise: Promise<unknown>): Promise<{ error: HttpError; afterMs: number }> {
  const started = Date.now();
  try {
    await promise;
  } catch (error) {
    return { error: error as HttpError, afterMs: Date.now() - started };
  }
  throw new Error('The query did not fail');
}

describe('a query over its time limit', () => {
  test('is stopped and answers 503 QUERY_TIMEOUT soon after the limit', async ({ slowRead }) => {
    const { error, afterMs } = await failure(slowRead());
    expect(error).toBeInstanceOf(HttpError);
    expect(error.status).toBe(503);
    expect(error.toBody().error).toMatchObject({ statusCode: 503, code: 'QUERY_TIMEOUT', name: 'ServiceUnavailableError' });
    expect(afterMs).toBeLessThan(LIMIT_MS + 3000);
  });

  test('leaves the database answering the next query', async ({ slowRead, quickRead }) => {
    await failure(slowRead());
    expect(await quickRead()).toHaveLength(1);
  });
});

describe('a query whose client has gone', () => {
  test('is stopped at once and answers REQUEST_CANCELLED', async ({ slowRead, quickRead }) => {
    const controller = new AbortController();
    const running = runInScope({ signal: controller.signal, holding: 0 }, () => slowRead());
    setTimeout(() => controller.abort(), 50);
    // Not QUERY_TIMEOUT: the cancellation stopped it, before its time limit could (no clock reading needed).
    const { error } = await failure(running);
    expect(error.code).toBe('REQUEST_CANCELLED');
    expect(await quickRead()).toHaveLength(1);
  });

  test('writes nothing: a transaction of a request cancelled half-way rolls back', async ({ storage }) => {
    const controller = new AbortController();
    const id = `cancelled-${Date.now()}`;
    const write = runInScope({ signal: controller.signal, holding: 0 }, () =>
      storage.db.transaction().execute(async (trx) => {
        await sql`insert into cancel_probe (id) values (${id})`.execute(trx);
        controller.abort();
        await sql`select id from cancel_probe`.execute(trx);
      }),
    );
    expect((await failure(write)).error.code).toBe('REQUEST_CANCELLED');
    expect((await sql`select id from cancel_probe where id = ${id}`.execute(storage.db)).rows).toEqual([]);
  });
});

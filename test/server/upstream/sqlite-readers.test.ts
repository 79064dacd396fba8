import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SqliteThread } from '../../../server/upstream/db/sqlite-pool.ts';

/*
 * How the SQLite connections read the file. A reader maps it into memory: with SQLite's own page cache of 2 MB, a
 * list touching rows all over a large file read each page with a system call, so the same query cost more the
 * larger the instance was (scripts/bench-scale-lists.ts measures that). The writer keeps its page cache: it runs
 * inside the upstream's process, whose memory the export budget counts.
 */
let dir: string;
let file: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sqlite-readers-'));
  file = path.join(dir, 'upstream.sqlite');
  const database = new DatabaseSync(file);
  database.exec("create table t (id integer primary key, name text); insert into t (name) values ('a'), ('b')");
  database.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function open(readOnly: boolean): Promise<SqliteThread> {
  let ready!: () => void;
  const opened = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const thread = new SqliteThread({ file, readOnly }, readOnly ? 'process' : 'thread', ready);
  // The writer reports ready too; a thread that ends first fails the test through its pending read.
  await opened;
  return thread;
}

async function mmapSize(thread: SqliteThread): Promise<number> {
  const { rows } = await thread.run('PRAGMA mmap_size', [], { timeoutMs: 5000 });
  return Number((rows[0] as { mmap_size: number }).mmap_size);
}

describe('SQLite connections', () => {
  test('a reader reads the file through a memory map of up to 2 GB', async () => {
    const reader = await open(true);
    try {
      expect(await mmapSize(reader)).toBeGreaterThanOrEqual(2 ** 31 - 2 ** 16);
      const { rows } = await reader.run('select name from t order by id', [], { timeoutMs: 5000 });
      expect(rows).toEqual([{ name: 'a' }, { name: 'b' }]);
    } finally {
      await reader.close();
    }
  });

  test('the writer, inside the upstream process, does not map the file', async () => {
    const writer = await open(false);
    try {
      expect(await mmapSize(writer)).toBe(0);
    } finally {
      await writer.close();
    }
  });
});

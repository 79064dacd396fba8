import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import type pg from 'pg';
import path from 'node:path';
import { Kysely, Migrator } from 'kysely';
import { NodeSqliteDialect } from './node-sqlite-dialect.ts';
import { SortKeyPlugin } from './sort-key-plugin.ts';
import { migrations } from './migrations/index.ts';
import { openPostgres, schemaForDataDir } from './postgres.ts';
import type { Database } from './types.ts';

export type Db = Kysely<Database>;
export type { Database };

export interface StorageOptions {
  /** Folder that holds upstream.sqlite; ':memory:' keeps everything in memory (tests). */
  dataDir: string;
  /**
   * postgres://user:pass@host/db: store in PostgreSQL instead of SQLite (default: the DATABASE_URL
   * environment variable). There, ':memory:' means a fresh schema dropped on close, and any other dataDir
   * a schema of its own (tests that reopen a folder); main.ts passes `postgresSchema: 'url'` so production
   * uses the schema the URL's user sees.
   */
  databaseUrl?: string;
  postgresSchema?: 'url';
  /** Time limit of one query after the migrations (default 15 s); past it the request answers 503 QUERY_TIMEOUT. */
  queryTimeoutMs?: number;
  /** SQLite: read-only connections, each on a thread of its own (default 3). PostgreSQL: the pool size (default 10). */
  connections?: number;
}

export const DEFAULT_QUERY_TIMEOUT_MS = 15_000;
export const DEFAULT_SQLITE_READERS = 3;
export const DEFAULT_POSTGRES_POOL = 10;

export interface Storage {
  db: Db;
  /** 'postgres' when DATABASE_URL (or databaseUrl) chose PostgreSQL. */
  dialect: 'sqlite' | 'postgres';
  /** The PostgreSQL connection pool (shared rate limits use it); undefined on SQLite. */
  pool?: pg.Pool;
  close(): Promise<void>;
}

/**
 * The one place that knows which database engine is used. Routes only see a Kysely instance and
 * write dialect-neutral queries; adding PostgreSQL means adding a branch here that builds a
 * PostgresDialect from DATABASE_URL, nothing else.
 */
export async function openStorage(options: StorageOptions): Promise<Storage> {
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL;
  if (databaseUrl) {
    const schema = options.postgresSchema ?? (options.dataDir === ':memory:' ? 'fresh' : { name: schemaForDataDir(options.dataDir) });
    const {
      db,
      schema: schemaName,
      pool,
      close,
      limitQueries,
    } = await openPostgres<Database>({ url: databaseUrl, schema, poolSize: options.connections ?? DEFAULT_POSTGRES_POOL });
    try {
      await migrate(db, schemaName);
    } catch (error) {
      await close();
      throw error;
    }
    limitQueries(options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS);
    return { db: withSortKeys(db), dialect: 'postgres', pool, close };
  }
  const memory = options.dataDir === ':memory:';
  let file = ':memory:';
  if (!memory) {
    privateFolder(options.dataDir);
    file = path.join(options.dataDir, 'upstream.sqlite');
    privateFile(file);
  }
  const dialect = new NodeSqliteDialect({ file });
  const db = new Kysely<Database>({ dialect });
  try {
    await migrate(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  // SQLite creates -wal and -shm with the database file's mode; a folder copied in from elsewhere may hold
  // older ones, so they are made private too (after the migrations: the writer's thread has opened the file).
  if (!memory) for (const suffix of ['-wal', '-shm']) if (existsSync(file + suffix)) chmodSync(file + suffix, 0o600);
  // Started after the migrations, so readers never see a schema half-way.
  dialect.startReaders(options.connections ?? DEFAULT_SQLITE_READERS, options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS);
  return { db: withSortKeys(db), dialect: 'sqlite', close: () => db.destroy() };
}

/**
 * Every write after the migrations keeps the names' sort and search keys (db/sort-key-plugin.ts). Added after
 * migrating: the migrations before 106 know no key columns, and 106 fills them itself.
 */
function withSortKeys(db: Db): Db {
  return db.withPlugin(new SortKeyPlugin());
}

/*
 * Health data at rest: the data folder is the owner's alone (0700) and every database file too (0600), whatever
 * the umask of the process that starts us, and also when the folder or file already existed with looser modes.
 */
export function privateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}
function privateFile(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}

/** Applies every migration in server/upstream/db/migrations/index.ts that has not run yet. */
// biome-ignore lint/suspicious/noExplicitAny:migrations run against whatever schema the database has so far, not the current types
export async function migrate(db: Kysely<any>, schema?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    // PostgreSQL: the bookkeeping tables live in this storage's own schema (another schema may have its own).
    ...(schema ? { migrationTableSchema: schema } : {}),
    provider: { getMigrations: async () => migrations },
    // Two people add migrations at the same time; a data folder may have run a later-numbered one first.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message ?? error}`);
  }
}

/** True when a write failed on a UNIQUE constraint (SQLite today; PostgreSQL's 23505 later). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; errcode?: number; message?: string };
  return e?.errcode === 2067 || e?.errcode === 1555 || e?.code === '23505' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

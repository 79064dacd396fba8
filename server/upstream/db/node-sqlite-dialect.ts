import { availableParallelism } from 'node:os';
import type { SQLInputValue } from 'node:sqlite';
import {
  type CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';
import { FairGate } from './fair-gate.ts';
import { currentScope, throwIfCancelled } from './request-scope.ts';
import { ReaderPool, SqliteThread } from './sqlite-pool.ts';

export interface NodeSqliteOptions {
  /** The database file, or ':memory:' (then one connection does everything: readers could not see its data). */
  file: string;
}

/**
 * Kysely dialect for node:sqlite, with every statement off the event loop: one writer connection on its own
 * thread, and (for a file) read-only connections on threads of their own, started by startReaders() once the
 * migrations ran. With WAL, readers see every committed write and never wait for one. Kysely's own SqliteDialect
 * is written against better-sqlite3, so the threads adapt node:sqlite: rows-returning statements are recognised
 * by their column list, parameters are spread, and booleans become 0/1 because SQLite has no boolean type.
 */
export class NodeSqliteDialect implements Dialect {
  readonly #driver: NodeSqliteDriver;
  constructor(options: NodeSqliteOptions) {
    this.#driver = new NodeSqliteDriver(options.file);
  }
  /** Read-only threads beside the writer (none for ':memory:'), each read limited to `queryTimeoutMs`, writes too. */
  startReaders(readers: number, queryTimeoutMs: number): void {
    this.#driver.start(readers, queryTimeoutMs);
  }
  createDriver(): Driver {
    return this.#driver;
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's Dialect interface takes any database
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

/** A statement that only reads: a plain SELECT (a WITH may end in a write, so it goes to the writer). */
const isRead = (sql: string) => /^\s*select\b/i.test(sql);

function toParameter(value: unknown): SQLInputValue {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  return value as SQLInputValue;
}

class NodeSqliteDriver implements Driver {
  readonly #file: string;
  readonly #writer: SqliteThread;
  #readers: ReaderPool | undefined;
  #gate: FairGate | undefined;
  #timeoutMs = 0;
  // One writer connection: a transaction spans awaits and must keep every other write out until it ends.
  #writerTail: Promise<void> = Promise.resolve();

  constructor(file: string) {
    this.#file = file;
    this.#writer = new SqliteThread({ file, readOnly: false });
  }
  start(readers: number, timeoutMs: number): void {
    this.#timeoutMs = timeoutMs;
    if (this.#file === ':memory:' || readers < 1 || this.#readers) return;
    this.#readers = new ReaderPool(this.#file, readers);
    // One coach may keep all readers but one busy, and no more cores than all but one: a reader runs a statement
    // at full speed on one core, so more of them would leave nothing for everyone else's short reads.
    this.#gate = new FairGate(Math.min(readers - 1, availableParallelism() - 1), () => this.#timeoutMs || 30_000);
  }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return new NodeSqliteConnection(this);
  }
  /** Waits for the writer's turn; the returned function gives it back. */
  async lockWriter(): Promise<() => void> {
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const before = this.#writerTail;
    this.#writerTail = before.then(() => mine);
    await before;
    return release;
  }
  write(sql: string, parameters: SQLInputValue[]): Promise<QueryResult<unknown>> {
    // A write is not stopped halfway: a cancelled request fails before its next statement (and rolls back).
    return this.#writer.run(sql, parameters, { timeoutMs: this.#timeoutMs });
  }
  async read(sql: string, parameters: SQLInputValue[]): Promise<QueryResult<unknown> | undefined> {
    if (!this.#readers) return undefined;
    const scope = currentScope();
    const leave = await this.#gate!.enter(scope);
    try {
      return await this.#readers.run(sql, parameters, { timeoutMs: this.#timeoutMs, signal: scope?.signal });
    } finally {
      leave();
    }
  }
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as NodeSqliteConnection).begin();
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as NodeSqliteConnection).end('commit');
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as NodeSqliteConnection).end('rollback');
  }
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {
    await this.#readers?.close();
    await this.#writer.close();
  }
}

/** One Kysely connection: reads outside a transaction go to a reader, everything else to the writer in its turn. */
class NodeSqliteConnection implements DatabaseConnection {
  readonly #driver: NodeSqliteDriver;
  #unlock: (() => void) | undefined;
  constructor(driver: NodeSqliteDriver) {
    this.#driver = driver;
  }
  async begin(): Promise<void> {
    throwIfCancelled();
    this.#unlock = await this.#driver.lockWriter();
    try {
      await this.#driver.write('begin', []);
    } catch (error) {
      this.#release();
      throw error;
    }
  }
  async end(how: 'commit' | 'rollback'): Promise<void> {
    try {
      await this.#driver.write(how, []);
    } finally {
      this.#release();
    }
  }
  #release(): void {
    const unlock = this.#unlock;
    this.#unlock = undefined;
    unlock?.();
  }
  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    throwIfCancelled();
    const parameters = compiledQuery.parameters.map(toParameter);
    if (this.#unlock) return (await this.#driver.write(compiledQuery.sql, parameters)) as QueryResult<R>;
    if (isRead(compiledQuery.sql)) {
      const read = await this.#driver.read(compiledQuery.sql, parameters);
      if (read) return read as QueryResult<R>;
    }
    const unlock = await this.#driver.lockWriter();
    try {
      return (await this.#driver.write(compiledQuery.sql, parameters)) as QueryResult<R>;
    } finally {
      unlock();
    }
  }
  // eslint-disable-next-line require-yield
  // biome-ignore lint/correctness/useYield: node:sqlite cannot stream; the generator only throws to say so
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not supported by the node:sqlite driver');
  }
}

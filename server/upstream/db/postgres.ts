import { createHash, randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import pg from 'pg';
import { CompiledQuery, Kysely, PostgresDialect, type DatabaseConnection, type Driver, type QueryResult, type TransactionSettings } from 'kysely';
import { FairGate } from './fair-gate.ts';
import { currentScope, queryTimedOut, requestCancelled, throwIfCancelled } from './request-scope.ts';

/**
 * PostgreSQL storage for the built-in upstream (DATABASE_URL=postgres://...). The schema and every query are
 * the same as on SQLite; this file only smooths the two places where the engines answer differently:
 * - counts and sums come back as int8/numeric, which node-postgres hands out as strings; the routes expect
 *   numbers (the values stay far below 2^53), so those types are parsed as numbers;
 * - booleans are stored as 0/1 integers (see types.ts), so a boolean parameter becomes 0/1 as on SQLite.
 */

const INT8 = 20;
const NUMERIC = 1700;

const typeParsers: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8 || oid === NUMERIC) return (value: string) => (value === null ? null : Number(value));
    return pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig['getTypeParser'],
};

const toParameter = (value: unknown) => (typeof value === 'boolean' ? (value ? 1 : 0) : value);

/** PostgreSQL's query_canceled: statement_timeout ran out, or pg_cancel_backend() stopped the query. */
const QUERY_CANCELED = '57014';

/**
 * One pooled connection with the parameter mapping above. A query of a request whose client has gone is cancelled
 * on the server (pg_cancel_backend from another connection, which needs this connection's backend pid, asked
 * once); a query over statement_timeout answers 503 QUERY_TIMEOUT.
 */
class FlagParameterConnection implements DatabaseConnection {
  readonly #inner: DatabaseConnection;
  readonly #pool: pg.Pool;
  #pid: number | undefined;
  /** The statement_timeout this session has, so it is set once per connection. */
  timeoutMs = 0;
  constructor(inner: DatabaseConnection, pool: pg.Pool) {
    this.#inner = inner;
    this.#pool = pool;
  }
  async #backendPid(): Promise<number> {
    this.#pid ??= Number((await this.#inner.executeQuery<{ pid: number }>(CompiledQuery.raw('select pg_backend_pid() as pid'))).rows[0].pid);
    return this.#pid;
  }
  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const scope = currentScope();
    throwIfCancelled(scope);
    const mapped = { ...query, parameters: query.parameters.map(toParameter) };
    const pid = scope ? await this.#backendPid() : undefined;
    let running = true;
    const cancel = () => {
      if (running) this.#pool.query('select pg_cancel_backend($1)', [pid]).catch(() => {});
    };
    scope?.signal.addEventListener('abort', cancel, { once: true });
    try {
      return await this.#inner.executeQuery<R>(mapped);
    } catch (error) {
      if ((error as { code?: string }).code !== QUERY_CANCELED) throw error;
      throw scope?.signal.aborted ? requestCancelled() : queryTimedOut(this.timeoutMs);
    } finally {
      running = false;
      scope?.signal.removeEventListener('abort', cancel);
    }
  }
  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.#inner.streamQuery<R>({ ...query, parameters: query.parameters.map(toParameter) }, chunkSize);
  }
  /** Sets this session's statement_timeout when it differs from the pool's current one. */
  async limit(timeoutMs: number): Promise<void> {
    if (this.timeoutMs === timeoutMs) return;
    await this.#inner.executeQuery(CompiledQuery.raw(`set statement_timeout = ${Math.max(0, Math.floor(timeoutMs))}`));
    this.timeoutMs = timeoutMs;
  }
}

/**
 * Kysely's pg driver with the connection above; the wrapper is kept per connection so Kysely sees one object.
 * One coach's requests hold at most all connections but two, and all cores but one (fair-gate.ts), and every query after the
 * migrations has the time limit of limitQueries().
 */
class FlagParameterDriver implements Driver {
  readonly #inner: Driver;
  readonly #pool: pg.Pool;
  readonly #gate: FairGate;
  readonly #wrapped = new WeakMap<DatabaseConnection, FlagParameterConnection>();
  readonly #unwrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();
  readonly #leaves = new WeakMap<DatabaseConnection, () => void>();
  timeoutMs = 0;
  constructor(inner: Driver, pool: pg.Pool, poolSize: number) {
    this.#inner = inner;
    this.#pool = pool;
    // Each connection's query runs on a core of its own: one coach gets no more cores than all but one (a database
    // on another host with more cores would allow more; one host for both is the common installation).
    this.#gate = new FairGate(Math.min(poolSize - 2, availableParallelism() - 1), () => this.timeoutMs || 30_000);
  }
  init() {
    return this.#inner.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    const leave = await this.#gate.enter(currentScope());
    try {
      const connection = await this.#inner.acquireConnection();
      let wrapped = this.#wrapped.get(connection);
      if (!wrapped) {
        wrapped = new FlagParameterConnection(connection, this.#pool);
        this.#wrapped.set(connection, wrapped);
        this.#unwrapped.set(wrapped, connection);
      }
      this.#leaves.set(wrapped, leave);
      await wrapped.limit(this.timeoutMs);
      return wrapped;
    } catch (error) {
      leave();
      throw error;
    }
  }
  #inner_(connection: DatabaseConnection) {
    return this.#unwrapped.get(connection) ?? connection;
  }
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    return this.#inner.beginTransaction(this.#inner_(connection), settings);
  }
  commitTransaction(connection: DatabaseConnection) {
    return this.#inner.commitTransaction(this.#inner_(connection));
  }
  rollbackTransaction(connection: DatabaseConnection) {
    return this.#inner.rollbackTransaction(this.#inner_(connection));
  }
  async releaseConnection(connection: DatabaseConnection) {
    const leave = this.#leaves.get(connection);
    this.#leaves.delete(connection);
    try {
      await this.#inner.releaseConnection(this.#inner_(connection));
    } finally {
      leave?.();
    }
  }
  destroy() {
    return this.#inner.destroy();
  }
}

class FlagParameterPostgresDialect extends PostgresDialect {
  readonly driver: FlagParameterDriver;
  constructor(pool: pg.Pool, poolSize: number) {
    super({ pool });
    this.driver = new FlagParameterDriver(super.createDriver(), pool, poolSize);
  }
  override createDriver(): Driver {
    return this.driver;
  }
}

export interface PostgresOptions {
  url: string;
  /**
   * 'url': the schema the URL's user sees (search_path as configured; production).
   * 'fresh': a new schema only this storage uses, dropped on close (tests that asked for ':memory:').
   * Any other string: that schema, created if missing and kept (tests that reopen a data folder).
   */
  schema: 'url' | 'fresh' | { name: string };
  /** Connections in the pool. */
  poolSize: number;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** A schema name for a data folder, so reopening the same folder reopens the same data. */
export function schemaForDataDir(dataDir: string): string {
  return `data_${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`;
}

/** Opens a pool on DATABASE_URL (with the schema chosen above) and returns Kysely plus a close that cleans up. */
export async function openPostgres<DB>(
  options: PostgresOptions,
): Promise<{ db: Kysely<DB>; schema: string; pool: pg.Pool; close: () => Promise<void>; limitQueries: (timeoutMs: number) => void }> {
  let schema = options.schema === 'url' ? null : options.schema === 'fresh' ? `tmp_${randomBytes(8).toString('hex')}` : options.schema.name;
  // On its own connection first: search_path below must point at an existing schema, and the migrator needs the
  // schema's name (other schemas in the same database may hold tables with the same names).
  const admin = new pg.Client({ connectionString: options.url });
  await admin.connect();
  try {
    if (schema) await admin.query(`create schema if not exists ${quoteIdent(schema)}`);
    else schema = String((await admin.query('select current_schema() as name')).rows[0]?.name ?? 'public');
  } finally {
    await admin.end();
  }
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    types: typeParsers,
    // A fresh schema is a stand-in for an in-memory database (tests): no need to wait for the disk on commit.
    ...(options.schema === 'url' ? {} : { options: `-c search_path=${schema}${options.schema === 'fresh' ? ' -c synchronous_commit=off' : ''}` }),
  });
  // An idle client whose server connection drops must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const dialect = new FlagParameterPostgresDialect(pool, options.poolSize);
  const db = new Kysely<DB>({ dialect });
  const close = async () => {
    await db.destroy();
    if (options.schema !== 'fresh') return;
    const admin = new pg.Client({ connectionString: options.url });
    await admin.connect();
    try {
      await admin.query(`drop schema if exists ${quoteIdent(schema)} cascade`);
    } finally {
      await admin.end();
    }
  };
  const limitQueries = (timeoutMs: number) => {
    dialect.driver.timeoutMs = timeoutMs;
  };
  return { db, schema, pool, close, limitQueries };
}

import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { type CompiledQuery, Kysely, PostgresDialect, type DatabaseConnection, type Driver, type QueryResult, type TransactionSettings } from 'kysely';

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

class FlagParameterConnection implements DatabaseConnection {
  readonly #inner: DatabaseConnection;
  constructor(inner: DatabaseConnection) {
    this.#inner = inner;
  }
  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.#inner.executeQuery<R>({ ...query, parameters: query.parameters.map(toParameter) });
  }
  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.#inner.streamQuery<R>({ ...query, parameters: query.parameters.map(toParameter) }, chunkSize);
  }
}

/** Kysely's pg driver with the parameter mapping above; the wrapper is kept per connection so Kysely sees one object. */
class FlagParameterDriver implements Driver {
  readonly #inner: Driver;
  readonly #wrapped = new WeakMap<DatabaseConnection, FlagParameterConnection>();
  readonly #unwrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();
  constructor(inner: Driver) {
    this.#inner = inner;
  }
  init() {
    return this.#inner.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.#inner.acquireConnection();
    let wrapped = this.#wrapped.get(connection);
    if (!wrapped) {
      wrapped = new FlagParameterConnection(connection);
      this.#wrapped.set(connection, wrapped);
      this.#unwrapped.set(wrapped, connection);
    }
    return wrapped;
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
  releaseConnection(connection: DatabaseConnection) {
    return this.#inner.releaseConnection(this.#inner_(connection));
  }
  destroy() {
    return this.#inner.destroy();
  }
}

class FlagParameterPostgresDialect extends PostgresDialect {
  override createDriver(): Driver {
    return new FlagParameterDriver(super.createDriver());
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
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** A schema name for a data folder, so reopening the same folder reopens the same data. */
export function schemaForDataDir(dataDir: string): string {
  return `data_${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`;
}

/** Opens a pool on DATABASE_URL (with the schema chosen above) and returns Kysely plus a close that cleans up. */
export async function openPostgres<DB>(options: PostgresOptions): Promise<{ db: Kysely<DB>; schema: string; pool: pg.Pool; close: () => Promise<void> }> {
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
    max: 10,
    types: typeParsers,
    // A fresh schema is a stand-in for an in-memory database (tests): no need to wait for the disk on commit.
    ...(options.schema === 'url' ? {} : { options: `-c search_path=${schema}${options.schema === 'fresh' ? ' -c synchronous_commit=off' : ''}` }),
  });
  // An idle client whose server connection drops must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = new Kysely<DB>({ dialect: new FlagParameterPostgresDialect({ pool }) });
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
  return { db, schema, pool, close };
}

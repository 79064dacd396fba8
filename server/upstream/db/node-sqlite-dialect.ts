import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import {
  CompiledQuery,
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

/**
 * Kysely dialect for node:sqlite's DatabaseSync. Kysely's own SqliteDialect is written against
 * better-sqlite3 (stmt.reader, stmt.all(arrayOfParams)); node:sqlite differs in both, so this small
 * driver adapts: rows-returning statements are recognised by their column list, parameters are spread,
 * and booleans become 0/1 because SQLite has no boolean type.
 */
export class NodeSqliteDialect implements Dialect {
  readonly #database: DatabaseSync;
  constructor(database: DatabaseSync) {
    this.#database = database;
  }
  createDriver(): Driver {
    return new NodeSqliteDriver(this.#database);
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

class NodeSqliteDriver implements Driver {
  readonly #connection: NodeSqliteConnection;
  // One connection for the whole process: node:sqlite is synchronous, so queries never overlap, but a
  // transaction spans awaits and must keep other requests out until it ends.
  #lock: Promise<void> | null = null;
  #release: (() => void) | null = null;
  constructor(database: DatabaseSync) {
    this.#connection = new NodeSqliteConnection(database);
  }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    while (this.#lock) await this.#lock;
    this.#lock = new Promise((resolve) => {
      this.#release = resolve;
    });
    return this.#connection;
  }
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#lock = null;
    this.#release = null;
    release?.();
  }
  async destroy(): Promise<void> {
    this.#connection.close();
  }
}

function toParameter(value: unknown): SQLInputValue {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  return value as SQLInputValue;
}

class NodeSqliteConnection implements DatabaseConnection {
  readonly #database: DatabaseSync;
  // Prepared statements are reused: the same few hundred SQL texts run over and over.
  readonly #statements = new Map<string, { statement: StatementSync; reader: boolean }>();
  constructor(database: DatabaseSync) {
    this.#database = database;
  }
  #prepare(sql: string): { statement: StatementSync; reader: boolean } {
    let entry = this.#statements.get(sql);
    if (!entry) {
      const statement = this.#database.prepare(sql);
      entry = { statement, reader: statement.columns().length > 0 };
      if (this.#statements.size >= 500) this.#statements.delete(this.#statements.keys().next().value!);
      this.#statements.set(sql, entry);
    }
    return entry;
  }
  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const { statement, reader } = this.#prepare(compiledQuery.sql);
    const parameters = compiledQuery.parameters.map(toParameter);
    if (reader) return { rows: statement.all(...parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(...parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }
  // eslint-disable-next-line require-yield
  // biome-ignore lint/correctness/useYield: node:sqlite cannot stream; the generator only throws to say so
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not supported by the node:sqlite driver');
  }
  close(): void {
    this.#statements.clear();
    if (this.#database.isOpen) this.#database.close();
  }
}

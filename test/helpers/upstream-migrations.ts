import { Kysely, Migrator } from 'kysely';
import { migrations } from '../../server/upstream/db/migrations/index.ts';
import { NodeSqliteDialect } from '../../server/upstream/db/node-sqlite-dialect.ts';
import { openPostgres } from '../../server/upstream/db/postgres.ts';

/**
 * A database as a data folder had it before migration `name` and every later one: for tests of what a
 * migration does to rows that already exist. SQLite in memory, or with DATABASE_URL a fresh PostgreSQL schema.
 * Finish with `migrate(db, schema)` from server/upstream/db/index.ts, as a start-up would.
 */
export async function storageBefore(name: string): Promise<{ db: Kysely<any>; schema: string | undefined; close(): Promise<void> }> {
  const earlier = Object.fromEntries(Object.entries(migrations).filter(([key]) => key < name));
  const url = process.env.DATABASE_URL;
  let db: Kysely<any>;
  let schema: string | undefined;
  let close: () => Promise<void>;
  if (url) {
    const pg = await openPostgres<any>({ url, schema: 'fresh', poolSize: 10 });
    db = pg.db;
    schema = pg.schema;
    close = pg.close;
  } else {
    db = new Kysely<any>({ dialect: new NodeSqliteDialect({ file: ':memory:' }) });
    close = () => db.destroy();
  }
  const migrator = new Migrator({
    db,
    ...(schema ? { migrationTableSchema: schema } : {}),
    provider: { getMigrations: async () => earlier },
    allowUnorderedMigrations: true,
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
  return { db, schema, close };
}

import { expect, test } from 'vitest';
import { Migrator, NO_MIGRATIONS, sql, type Kysely } from 'kysely';
import { migrations } from '../../../server/upstream/db/migrations/index.ts';
import { storageBefore } from '../../helpers/upstream-migrations.ts';

/*
 * Every migration can be taken back: from the newest to the first, each down step leaves what the one before it
 * found, so an operator who has to return to an older image can (npm run test:postgres repeats this on PostgreSQL).
 */

/** The tables, indexes, triggers and views the schema holds, besides Kysely's own bookkeeping. */
async function objects(db: Kysely<any>, schema: string | undefined): Promise<string[]> {
  const rows = schema
    ? await sql<{ name: string }>`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${schema} and c.relkind in ('r', 'i', 'v', 'm', 'S')
        union all select t.tgname from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${schema} and not t.tgisinternal
        union all select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = ${schema}`.execute(db)
    : await sql<{ name: string }>`select name from sqlite_master where name not like 'sqlite_%'`.execute(db);
  return rows.rows
    .map((r) => r.name)
    .filter((name) => !name.startsWith('kysely_'))
    .sort();
}

test('every migration steps back: all of them taken back leave an empty schema, and all of them run again', { timeout: 60_000 }, async () => {
  const { db, schema, close } = await storageBefore('~ after every migration');
  try {
    const migrator = new Migrator({ db, ...(schema ? { migrationTableSchema: schema } : {}), provider: { getMigrations: async () => migrations } });
    expect((await objects(db, schema)).length).toBeGreaterThan(20);
    const down = await migrator.migrateTo(NO_MIGRATIONS);
    expect(down.error).toBeUndefined();
    expect(down.results?.map((r) => r.migrationName)).toEqual(Object.keys(migrations).reverse());
    expect(await objects(db, schema)).toEqual([]);
    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();
    expect(up.results).toHaveLength(Object.keys(migrations).length);
  } finally {
    await close();
  }
});

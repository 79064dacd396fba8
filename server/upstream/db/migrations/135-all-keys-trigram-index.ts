import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Db } from '../index.ts';
import { trigramSchema } from './113-list-indexes.ts';
import { TRIGRAM_ORDER_KEYS } from './129-trigram-name-order.ts';

/*
 * PostgreSQL: one trigram index over every key a name search compares (http/rare-candidates.ts): a search of several
 * words finds the few patients that can have all of them from one index, each word by its rarest trigram ("peter
 * müller": "ete" and "mul" or "mue", 46 patients at 100,000, 0.4 ms), where the index per column read and or-ed five
 * indexes per word (3.4 ms) after a walk of the name order had looked for the page among 1,205 Müllers (4 ms). The
 * keys joined by a space, each empty when null; the expression is the one the searches write (ALL_KEYS). Without
 * pg_trgm there is no index, and the searches do as before. SQLite has FTS5 over the same keys (migration 114).
 */
export const ALL_KEYS_INDEX = 'patients_all_keys_trgm';

/** The indexed expression, over the patients table's columns. */
export const ALL_KEYS = `(${TRIGRAM_ORDER_KEYS.map((k) => `coalesce("patients"."${k}", '')`).join(` || ' ' || `)})`;

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  const schema = await trigramSchema(db);
  if (!schema) return;
  // The same expression without the table's name (an index names its table's columns alone).
  const expression = ALL_KEYS.replaceAll('"patients".', '');
  await sql.raw(`CREATE INDEX ${ALL_KEYS_INDEX} ON patients USING gin (${expression} "${schema}".gin_trgm_ops) WITH (fastupdate = off)`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql.raw(`DROP INDEX IF EXISTS ${ALL_KEYS_INDEX}`).execute(db);
}

const indexed = new WeakMap<Db, Promise<boolean>>();

/** Whether this PostgreSQL database has the index (pg_trgm was there for the migration), read once per database. */
export function hasAllKeysIndex(db: Db): Promise<boolean> {
  let known = indexed.get(db);
  if (!known) {
    known = sql<{ found: boolean }>`select exists (select 1 from pg_indexes where schemaname = current_schema() and indexname = ${ALL_KEYS_INDEX}) as found`
      .execute(db)
      .then(({ rows }) => Boolean(rows[0]?.found));
    indexed.set(db, known);
    known.catch(() => indexed.delete(db));
  }
  return known;
}

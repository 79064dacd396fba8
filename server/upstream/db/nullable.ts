import { PostgresAdapter, sql } from 'kysely';
import type { Db } from './index.ts';

/*
 * Whether a column of a table may hold NULL, from the schema (SQLite's table_info, PostgreSQL's information_schema),
 * read once per database and table: the schema changes only with the migrations run before the upstream serves.
 * A list's plan asks it before work that only pays where a column has empty values (http/list-page.ts).
 */

const read = new WeakMap<Db, Map<string, Promise<Set<string>>>>();

/** The columns of `table` that may hold NULL. */
function nullableColumns(db: Db, table: string): Promise<Set<string>> {
  const tables = read.get(db) ?? new Map<string, Promise<Set<string>>>();
  read.set(db, tables);
  let columns = tables.get(table);
  if (!columns) {
    columns = readNullable(db, table);
    tables.set(table, columns);
    // A failed read is asked again next time.
    columns.catch(() => tables.delete(table));
  }
  return columns;
}

async function readNullable(db: Db, table: string): Promise<Set<string>> {
  const query =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? sql<{ name: string }>`select column_name as name from information_schema.columns
          where table_schema = current_schema() and table_name = ${table} and is_nullable = 'YES'`
      : sql<{ name: string }>`select name from pragma_table_info(${table}) where "notnull" = 0 and pk = 0`;
  const { rows } = await query.execute(db);
  return new Set(rows.map((row) => row.name));
}

/** True when `column` of `table` may hold NULL. */
export async function canBeEmpty(db: Db, table: string, column: string): Promise<boolean> {
  return (await nullableColumns(db, table)).has(column);
}

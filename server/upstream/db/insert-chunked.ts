import type { Db } from '../db/index.ts';

/** Inserts rows in chunks of 200: one statement per chunk keeps the bound parameters well under SQLite's limit. */
export async function insertChunked(db: Db, table: string, rows: object[], chunk = 200): Promise<void> {
  for (let i = 0; i < rows.length; i += chunk) {
    await db
      .insertInto(table as never)
      .values(rows.slice(i, i + chunk) as never)
      .execute();
  }
}

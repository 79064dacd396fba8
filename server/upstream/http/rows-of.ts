import type { Db } from '../db/index.ts';
import type { AnyQuery } from '../resource/definition.ts';

/** How many rows `query` gives, counted by the database (the caller limits the query, so the count stops there). */
export async function rowsOf(db: Db, query: AnyQuery): Promise<number> {
  const counted = await db
    .selectFrom(query.as('counted'))
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirst();
  return Number(counted?.count ?? 0);
}

import { PostgresAdapter, sql } from 'kysely';
import type { Db } from './index.ts';
import { FIGURE_TOTAL_TRIGGERS, FIGURE_TOTALS, totalsOfAll } from './migrations/126-patient-figure-totals.ts';
import { countAll, TRIGRAM_COUNT_TRIGGERS, TRIGRAM_COUNTS } from './migrations/128-search-trigram-counts.ts';
import { fillAll, TRIGRAM_ORDER, TRIGRAM_ORDER_TRIGGERS } from './migrations/129-trigram-name-order.ts';

/** Tables kept by statement triggers on PostgreSQL, which a bulk load fills once after instead (`counts`: the table). */
const DERIVED = [
  { table: 'patients', triggers: TRIGRAM_COUNT_TRIGGERS, counts: TRIGRAM_COUNTS, countAll },
  { table: 'patients', triggers: TRIGRAM_ORDER_TRIGGERS, counts: TRIGRAM_ORDER, countAll: fillAll },
  { table: 'sync_records', triggers: FIGURE_TOTAL_TRIGGERS, counts: FIGURE_TOTALS, countAll: totalsOfAll },
];

/**
 * Runs a bulk load of patients and their records (the seed) with PostgreSQL's search trigram counts (migration
 * 128), trigram walk entries (migration 129; 5.9 s for 100,000 patients) and figure totals (migration 126) made
 * once after it instead of by their triggers statement by statement:
 * each insert of a few thousand patients upserted thousands of trigram rows, 65 s of a 100,000-patient seed;
 * counted at the end, about 2 s. The tables are locked for the load (ALTER TABLE): a seed's database is nobody
 * else's yet. SQLite's triggers run row by row, at a cost a seed can bear.
 */
export async function withCountsAfter<T>(db: Db, load: () => Promise<T>): Promise<T> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return load();
  const switchTriggers = async (action: 'DISABLE' | 'ENABLE') => {
    for (const { table, triggers } of DERIVED)
      await sql.raw(`ALTER TABLE ${table} ${triggers.map((name) => `${action} TRIGGER ${name}`).join(', ')}`).execute(db);
  };
  await switchTriggers('DISABLE');
  const rebuild = await dropSecondaryIndexes(db, 'patients');
  try {
    return await load();
  } finally {
    await rebuild();
    await db.transaction().execute(async (trx) => {
      for (const derived of DERIVED) {
        await sql.raw(`DELETE FROM ${derived.counts}`).execute(trx);
        await sql.raw(derived.countAll()).execute(trx);
      }
    });
    await switchTriggers('ENABLE');
  }
}

/**
 * PostgreSQL's advice for populating a database: load first, index after. The patient table has some thirty indexes
 * (five of them trigram GIN indexes without a pending list), and every inserted row went into each of them: 52 of the
 * 128 s of a 100,000-patient seed. Those that enforce nothing (not the primary key, not a unique one) are dropped
 * here and made again, from their own definitions, by the function returned.
 */
async function dropSecondaryIndexes(db: Db, table: string): Promise<() => Promise<void>> {
  const { rows } = await sql<{ name: string; definition: string }>`
    select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
    from pg_index i where i.indrelid = ${table}::regclass and not i.indisprimary and not i.indisunique`.execute(db);
  for (const { name } of rows) await sql`drop index ${sql.raw(name)}`.execute(db);
  return async () => {
    for (const { definition } of rows) await sql.raw(definition).execute(db);
  };
}

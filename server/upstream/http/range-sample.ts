import type { Db } from '../db/index.ts';
import type { AnyQuery } from '../resource/definition.ts';
import { sql, type SqlBool } from 'kysely';
import { conjuncts } from './walk-or-sort.ts';
import { whereExpression } from './filter.ts';

/*
 * SQLite, a filter with ranges on two fields ("Endet bald" and "Letzte Daten: gelb"): which field's index to read.
 * SQLite has no histograms (this build has no STAT4): it takes a range with one bound for a fourth of the table and
 * one with two for a sixty-fourth, whatever the values, and between two alike it chose the last data's index, which
 * has a share of the table. So it counted "Endet bald" with "gelb" by reading 15,858 "gelb" entries at 100,000 patients
 * for 623 matches (1.1 ms) where the 3,792 patients ending soon held them (0.3), and "Geplant" with "grün" by reading
 * 48,367 "grün" entries where 5,377 planned held none of them.
 *
 * A fixed-size random sample of the table's rows (its rowids drawn at random, SAMPLE.rows of them, the same cost at any
 * size) says what share each field's conditions select; the field whose conditions select the fewest leads, and the
 * others are compared on the rows its index finds (inside a function call, where SQLite uses no index for them).
 * The sample is read again after SAMPLE.maxAgeMs, in the background, the old one answering meanwhile: a share a few
 * minutes old still tells a few percent from a third of the table.
 */

/** Rows sampled per table, and how long a sample is used. */
export const SAMPLE = { rows: 1000, maxAgeMs: 5 * 60_000 };

/** The fields a range filter is sized for, per table: the ones whose indexes SQLite cannot size. */
const SIZED: Record<string, readonly string[]> = { patients: ['aftercareStart', 'aftercareEnd', 'lastDataAt'] };

type Sample = Record<string, unknown>[];
interface Held {
  at: number;
  rows: Promise<Sample>;
}
const samples = new WeakMap<Db, Map<string, Held>>();

/**
 * The filter with the conditions on the field that selects the fewest rows (by the sample) where an index can seek
 * them, and the others compared per row; undefined when it has conditions on fewer than two sized fields, or a
 * condition the sample cannot judge (then SQLite chooses).
 */
export async function ledBySmallestRange(db: Db, scoped: AnyQuery, table: string, where: Record<string, unknown>): Promise<AnyQuery | undefined> {
  const fields = SIZED[table];
  if (!fields) return undefined;
  const all = conjuncts(where);
  const byField = new Map<string, Record<string, unknown>[]>();
  for (const condition of all) {
    const field = soleField(condition);
    if (field && fields.includes(field)) byField.set(field, [...(byField.get(field) ?? []), condition]);
  }
  if (byField.size < 2) return undefined;
  const rows = await sampleOf(db, table, fields);
  let lead: { field: string; share: number } | undefined;
  for (const [field, conditions] of byField) {
    const share = shareOf(rows, field, conditions);
    if (share === undefined) return undefined;
    if (!lead || share < lead.share) lead = { field, share };
  }
  const led = all.filter((condition) => byField.get(lead!.field)?.includes(condition));
  const compared = all.filter((condition) => !led.includes(condition));
  return scoped
    .where((eb) => whereExpression(eb, { and: led }, table))
    .where((eb) => sql<SqlBool>`iif(${whereExpression(eb, { and: compared }, table)}, 1, 0)`);
}

/** The one field a condition compares (an `or` of conditions on it included), or undefined. */
function soleField(condition: Record<string, unknown>): string | undefined {
  const keys = Object.keys(condition);
  if (keys.length !== 1) return undefined;
  if (keys[0] !== 'or' && keys[0] !== 'and') return keys[0];
  const fields = new Set((condition[keys[0]] as Record<string, unknown>[]).map(soleField));
  return fields.size === 1 ? [...fields][0] : undefined;
}

/** The share of the sampled rows that meet every condition, or undefined for a condition this does not judge. */
export function shareOf(rows: Sample, field: string, conditions: Record<string, unknown>[]): number | undefined {
  if (rows.length === 0) return 0;
  let met = 0;
  for (const row of rows) {
    const results = conditions.map((condition) => meets(row[field], condition, field));
    if (results.includes(undefined)) return undefined;
    if (results.every(Boolean)) met++;
  }
  return met / rows.length;
}

/** Whether a value meets a condition on its field, as SQL compares it (an empty value meets no comparison). */
function meets(value: unknown, condition: Record<string, unknown>, field: string): boolean | undefined {
  const [key, test] = Object.entries(condition)[0];
  if (key === 'or' || key === 'and') {
    const results = (test as Record<string, unknown>[]).map((sub) => meets(value, sub, field));
    if (results.includes(undefined)) return undefined;
    return key === 'or' ? results.some(Boolean) : results.every(Boolean);
  }
  if (key !== field) return undefined;
  if (test === null) return value === null || value === undefined;
  if (typeof test === 'string') return value === test;
  if (typeof test !== 'object' || Array.isArray(test)) return undefined;
  if (value === null || value === undefined) return false;
  const v = String(value);
  let all = true;
  for (const [op, bound] of Object.entries(test as Record<string, unknown>)) {
    if (op === 'between' && Array.isArray(bound) && typeof bound[0] === 'string' && typeof bound[1] === 'string') {
      all &&= v >= bound[0] && v <= bound[1];
      continue;
    }
    if (typeof bound !== 'string') return undefined;
    if (op === 'gt') all &&= v > bound;
    else if (op === 'gte') all &&= v >= bound;
    else if (op === 'lt') all &&= v < bound;
    else if (op === 'lte') all &&= v <= bound;
    else return undefined;
  }
  return all;
}

/** The table's sample: read on first use, then again in the background once it is older than SAMPLE.maxAgeMs. */
function sampleOf(db: Db, table: string, fields: readonly string[]): Promise<Sample> {
  const held = samples.get(db) ?? new Map<string, Held>();
  samples.set(db, held);
  const current = held.get(table);
  if (current && Date.now() - current.at < SAMPLE.maxAgeMs) return current.rows;
  const next: Held = { at: Date.now(), rows: readSample(db, table, fields) };
  // A failed read is tried again on the next use; meanwhile an older sample answers.
  next.rows.catch(() => held.delete(table));
  held.set(table, next);
  return current ? current.rows : next.rows;
}

/** SAMPLE.rows rows at random rowids (all rows of a smaller table). */
async function readSample(db: Db, table: string, fields: readonly string[]): Promise<Sample> {
  const columns = sql.join(fields.map((field) => sql.ref(field)));
  const { rows: bounds } = await sql<{
    low: number | null;
    high: number | null;
  }>`select min(rowid) as low, max(rowid) as high from ${sql.table(table)}`.execute(db);
  const low = Number(bounds[0]?.low ?? 0);
  const high = Number(bounds[0]?.high ?? 0);
  if (high - low + 1 <= SAMPLE.rows) return (await sql<Record<string, unknown>>`select ${columns} from ${sql.table(table)}`.execute(db)).rows;
  const rowids = new Set<number>();
  while (rowids.size < SAMPLE.rows) rowids.add(low + Math.floor(Math.random() * (high - low + 1)));
  return (await sql<Record<string, unknown>>`select ${columns} from ${sql.table(table)} where rowid in (${sql.join([...rowids])})`.execute(db)).rows;
}

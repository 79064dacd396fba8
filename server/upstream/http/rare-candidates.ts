import { PostgresAdapter, type SqlBool, sql } from 'kysely';
import { ALL_KEYS, hasAllKeysIndex } from '../db/migrations/135-all-keys-trigram-index.ts';
import { PATIENT_SEARCH_INDEX } from '../db/migrations/114-patient-search-index.ts';
import type { Db } from '../db/index.ts';
import type { AnyQuery, Row } from '../resource/definition.ts';
import { whereExpression } from './filter.ts';
import { rarestTrigrams, type SearchWords } from './trigram-walk.ts';
import { rowsOf } from './rows-of.ts';

/*
 * A search of several words beyond one caseload ("peter müller", a first and a last name): the few patients that have
 * each word's rarest trigram, from one index (SQLite's FTS5 over the keys, PostgreSQL's trigram index over all keys,
 * migration 135), compared with the whole filter and sorted. Two common words that few patients have together
 * otherwise cost as much as the words have patients: a walk of the name order read 1,205 Müllers for 20 Peters and
 * missed, then each word's patients were intersected (SQLite 1.7 ms for the full phrases, PostgreSQL five indexes
 * per word, 3.4 ms); at 100,000 patients 13.5 and 14.6 ms, twice the CPU of 10,000. The rarest trigrams are
 * intersected in the index itself: 46 candidates in 0.2 ms (SQLite) and 0.4 (PostgreSQL).
 */

/**
 * Off: searches are answered as before (tests compare the two). Candidates beyond which the search is answered as
 * before (each is read and compared), also when the words' trigram counts expect more; how long an estimate of the
 * patients is used.
 */
export const RARE_CANDIDATES = { enabled: true, most: 200, maxAgeMs: 5 * 60_000 };

/** A list's search: its scope, the where, its words' trigrams, the order. */
export interface CandidateSearch {
  scoped: AnyQuery;
  where: Record<string, unknown>;
  words: SearchWords;
  ordered: (q: AnyQuery) => AnyQuery;
}

/**
 * The page and total of a search of two words or more from its candidates; undefined when fewer than two words have
 * trigrams, PostgreSQL lacks the index (no pg_trgm), or there are more than RARE_CANDIDATES.most candidates.
 */
export async function rareCandidatesPage(
  db: Db,
  search: CandidateSearch,
  page: { skip: number; limit: number },
): Promise<{ rows: Row[]; total: number | undefined } | undefined> {
  if (!RARE_CANDIDATES.enabled) return undefined;
  const rarest = await rarestTrigrams(search.where, search.words);
  if (!rarest || rarest.length < 2) return undefined;
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres && !(await hasAllKeysIndex(db))) return undefined;
  // Words many patients have together ("mar sch": 824 at 100,000) are found sooner on a walk of the order: counting
  // their candidates up to the limit cost more than the walk (2 ms at 100,000 patients).
  if (expectedCandidates(rarest, await patientsAbout(db)) > RARE_CANDIDATES.most) return undefined;
  const words = rarest.map((word) => word.map((w) => w.trigram));
  const candidates = search.scoped.where(postgres ? allKeysCondition(words) : searchIndexCondition(words));
  if ((await rowsUpTo(db, candidates, RARE_CANDIDATES.most + 1)) > RARE_CANDIDATES.most) return undefined;
  // The candidates compared with the whole filter, each key as written; on PostgreSQL as a table of their own (OFFSET 0
  // keeps it from pushing the filter into it: it would read the per-column trigram indexes again).
  const fenced = postgres ? (db.selectFrom(candidates.selectAll('patients').offset(0).as('patients') as never) as unknown as AnyQuery) : candidates;
  const matches = fenced.where((eb) => whereExpression(eb, search.where, 'patients'));
  const rows = (await search
    .ordered(matches.selectAll().select(sql<number>`count(*) over ()`.as(TOTAL)))
    .limit(page.limit)
    .offset(page.skip)
    .execute()) as Row[];
  const total = rows.length > 0 ? Number(rows[0][TOTAL]) : page.skip === 0 ? 0 : await rowsUpTo(db, matches, RARE_CANDIDATES.most);
  for (const row of rows) delete row[TOTAL];
  return { rows, total };
}

/**
 * How many patients have one of each word's trigrams, were the words independent of each other: the share of each
 * word's patients multiplied ("peter müller" at 100,000 patients: 3,322 with "ete" x 3,308 with "mul" or "mue" /
 * 100,060, 110; it has 46).
 */
function expectedCandidates(words: { patients: number }[][], patients: number): number {
  const shares = words.map((word) => Math.min(1, word.reduce((sum, w) => sum + w.patients, 0) / Math.max(patients, 1)));
  return shares.reduce((product, share) => product * share, Math.max(patients, 1));
}

/** About how many patients there are (PostgreSQL's statistics, SQLite's largest rowid), read once per RARE_CANDIDATES.maxAgeMs. */
function patientsAbout(db: Db): Promise<number> {
  const known = estimates.get(db);
  if (known && Date.now() - known.at < RARE_CANDIDATES.maxAgeMs) return known.patients;
  const query =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? sql<{ patients: number }>`select greatest(reltuples, 0) as patients from pg_class where oid = 'patients'::regclass`
      : sql<{ patients: number }>`select coalesce(max(rowid), 0) as patients from patients`;
  const patients = query.execute(db).then(({ rows }) => Number(rows[0]?.patients ?? 0));
  estimates.set(db, { at: Date.now(), patients });
  patients.catch(() => estimates.delete(db));
  return patients;
}
const estimates = new WeakMap<Db, { at: number; patients: Promise<number> }>();

/** The window count's column (no table has a column of this name). */
const TOTAL = '__candidatesTotal';

/** SQLite: the patients whose keys the FTS5 index finds each word's rarest trigrams in (one of each word's). */
function searchIndexCondition(words: string[][]) {
  const phrase = (trigram: string) => `"${trigram.replaceAll('"', '""')}"`;
  const query = words.map((trigrams) => `(${trigrams.map(phrase).join(' OR ')})`).join(' AND ');
  const index = sql.table(PATIENT_SEARCH_INDEX);
  return sql<SqlBool>`${sql.ref('patients.rowid')} in (select rowid from ${index} where ${index} match ${query})`;
}

/** PostgreSQL: the same over the trigram index of all keys (migration 135), one `like` per trigram. */
function allKeysCondition(words: string[][]) {
  const contains = (trigram: string) => `%${trigram.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const word = (trigrams: string[]) =>
    sql.join(
      trigrams.map((trigram) => sql`${sql.raw(ALL_KEYS)} like ${contains(trigram)} escape '\\'`),
      sql` or `,
    );
  return sql<SqlBool>`(${sql.join(
    words.map((trigrams) => sql`(${word(trigrams)})`),
    sql` and `,
  )})`;
}

/** How many rows `query` gives, reading at most `cap`. */
const rowsUpTo = (db: Db, query: AnyQuery, cap: number) =>
  rowsOf(
    db,
    query
      .clearSelect()
      .select((eb) => eb.lit(1).as('one'))
      .limit(cap),
  );

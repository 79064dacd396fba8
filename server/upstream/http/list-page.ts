import { PostgresAdapter, sql } from 'kysely';
import { orderColumn } from '../lib/sort-key.ts';
import { PATIENT_SEARCH_INDEX } from '../db/migrations/114-patient-search-index.ts';
import { hasKeyedLike, keyedLikesHaveTrigrams, matchBound, type ParsedFilter, searchOnly, searchTrigrams, whereExpression } from './filter.ts';
import type { AnyQuery, Row } from '../resource/definition.ts';
import type { Db } from '../db/index.ts';
import { letterCandidates, matchesBeyond, nameOrderStart, type SearchWords, searchWords, TRIGRAM_WALK, trigramWalkPage } from './trigram-walk.ts';
import { ledBySmallestRange } from './range-sample.ts';
import { canBeEmpty } from '../db/nullable.ts';
import { caseloadNamePage } from './caseload-page.ts';
import { rareCandidatesPage } from './rare-candidates.ts';
import { rowsOf } from './rows-of.ts';
import { compares, conjuncts, emptyOrSplit, filtersBesideOrder, type Leading, ORDER_WALK, orderedHalves, walkOrder } from './walk-or-sort.ts';

/**
 * Lists are counted exactly up to this many rows. A longer list answers without X-Total-Count, which the contract
 * makes optional (the client asks for one row more than a page and says "more than" for a figure it cannot
 * count): a count that walked the whole table would make every page of a large instance as slow as the table is
 * big, and counting to this cap costs the same at 10,000 patients as at 100,000.
 */
export const COUNT_LIMIT = 1000;

/**
 * One page of a list call, the one implementation for every list the upstream answers: the filter's `where` on
 * top of the caller's scope, the total (for X-Total-Count; undefined past COUNT_LIMIT), the filter's order or the
 * list's default (names by their German sort key, lib/sort-key.ts), the id as the last tie-breaker so pages never
 * overlap. Every order the client uses has an index in that order (migration 113), so skip is an index walk.
 */
export async function listPage(
  db: Db,
  scoped: AnyQuery,
  table: string,
  filter: ParsedFilter,
  defaultOrder: readonly { field: string; direction: 'asc' | 'desc' }[],
  scope?: ListScope,
): Promise<{ rows: Row[]; total: number | undefined }> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const caseload = typeof scope === 'object';
  const limit = filter.limit ?? 2 ** 31 - 1;
  const order = filter.order.length ? filter.order : defaultOrder;
  if (caseload && table === 'patients' && !filter.where && limit > 0) {
    const page = await caseloadNamePage(db, scope.caseloadOf, order, { skip: filter.skip, limit }, COUNT_LIMIT);
    if (page) return page;
  }
  // Within a coach's caseload a search compares the few hundred rows themselves: asking the index would read every
  // match in the instance, which grows with it (SQLite, "mül" at 100,000 patients: 2.6 ms that way, 1.6 ms this).
  const searchIndex = table === 'patients' && !postgres && !caseload ? PATIENT_SEARCH_INDEX : undefined;
  const searching = table === 'patients' && !caseload && hasKeyedLike(filter.where, table);
  const search = scope === 'all' && searchIndex && filter.where ? searchOnly(filter.where, table) : undefined;
  const first = order[0]?.field ?? 'id';
  const descending = order[0]?.direction === 'desc';
  const leading: Leading = { field: first, descending, emptyFirst: postgres === descending };
  const ordered = orderedBy(table, order);
  const keyedOrder = table === 'patients' && KEYED_ORDERS.has(first);
  // Known to match more than a walk of the name order counts (TRIGRAM_WALK.countLimit): a full page has no total.
  let beyondCount = false;
  // The search's trigrams, read once for every way of finding its page below.
  const words = searching ? searchWords(db, filter.where!) : undefined;
  // SQLite, a search alone over every patient: its matches counted in the name index, each cap asked once.
  const counted = search ? countedOnce((cap) => cappedMatches(db, searchIndex!, search, cap)) : undefined;
  if (searching) {
    const few = limit > 0 ? await rareCandidatesPage(db, { scoped, where: filter.where!, words: words!, ordered }, { skip: filter.skip, limit }) : undefined;
    if (few) return few;
    const compared = scoped.where((eb) => whereExpression(eb, filter.where!, table));
    const walked = await trigramWalkPage(db, compared, filter, order, { limit: COUNT_LIMIT, cheap: counted && (() => counted(COUNT_LIMIT)) }, words);
    if (walked) return walked;
    const list = { scoped, compared, table, where: filter.where!, words: words!, order, ordered, leading };
    const keyed = keyedOrder && limit > 0 ? await keyedSearchPage(db, list, { skip: filter.skip, limit }, counted) : undefined;
    if (typeof keyed === 'object') return keyed;
    beyondCount = keyed === 'many';
  }
  // A rare word of one or two letters in another order: its few possible matches first (trigram-walk.ts).
  const candidates = searching && !caseload ? await letterCandidates(db, filter.where!, SEARCH_WALK.from, words) : undefined;
  // An order whose index holds the search keys (migration 133) walks from fewer matches: it reads no row to compare.
  // SQLite only: its total is counted in the trigram index, where PostgreSQL's count of up to COUNT_LIMIT matches
  // would walk the same index ("anna" at 100,000 patients: 45,000 entries for 1,001 matches, 11 ms).
  const walkFrom = keyedOrder && !postgres ? SEARCH_WALK.fromInKeyedOrder : SEARCH_WALK.from;
  const plan = searching && !candidates ? await searchPlan(db, table, filter, counted, walkFrom) : undefined;
  // A walk of the order looks each row up in the index's matches (a word too short for it is compared per row);
  // in an order whose index holds the keys, it compares them there.
  const index = searchIndex && !(plan?.walk && keyedOrder) ? { name: searchIndex, inOrder: plan?.walk } : undefined;
  const filtered = filter.where ? scoped.where((eb) => whereExpression(eb, filter.where!, table, index)) : scoped;
  // PostgreSQL takes them as an array it looks up one by one (as `in`, it scanned every patient to hash-join them).
  const base = candidates
    ? filtered.where((eb) => (postgres ? eb(`${table}.id`, '=', sql`any(array(${candidates}))`) : eb(`${table}.id`, 'in', candidates as never)))
    : filtered;
  // Beyond one caseload, a filter beside the order: its matches counted first say whether to sort or walk them
  // (walk-or-sort.ts); the count is the list's total.
  const countFirst = !searching && !caseload && limit > 0 && filter.where !== undefined && filtersBesideOrder(filter.where, first);
  if (countFirst) {
    const page = await besideOrderPage(db, { scoped, base, table, where: filter.where!, order, ordered, leading }, { skip: filter.skip, limit });
    if (page !== 'sort') return page;
  }
  // A filter beside the order whose walk missed, other than a status's: SQLite sorts its matches (it has no better
  // guess; walking the order it read the whole order for the 5,377 "Geplant" by last data, 40 ms); PostgreSQL makes
  // its own choice (its histograms know one condition's share: "Letzte Daten 7-30 Tage" by latest end of aftercare
  // 4 ms that way, 15 ms sorting them).
  const matchesFirst = (postgres && searching && !plan?.walk) || candidates !== undefined || (countFirst && !postgres);
  // PostgreSQL, a page past the start of a list of the whole table: the page's ids first, from the order's index
  // alone, then their rows. Asked for the rows themselves, the planner judged a walk past every skipped row dearer
  // than sorting the whole table (an export of 100,000 patients by name: 150 ms a page near its end, 27 s in all).
  // A walk of a search takes its ids the same way: the name order's index holds the keys it compares, so it reads no
  // row until the page's ("sch" at 100,000 patients: 9.6 ms reading each row it passed, 1.4 from the index alone).
  const deferred = postgres && !caseload && !matchesFirst && (filter.skip > 0 || Boolean(plan?.walk));
  // "Letzte Daten: grau" by last data: its two halves read one after the other (walk-or-sort.ts orderedHalves).
  const halvedAs = (read: (q: AnyQuery) => AnyQuery) =>
    !searching && !caseload && !countFirst && filter.where
      ? orderedHalves(db, scoped, table, filter.where, leading, ordered, read, filter.skip + limit)
      : undefined;
  const halved = halvedAs((q) => q.selectAll(table as never));
  // PostgreSQL: a caseload's page sorts all of its rows anyway; they are counted on the way (a window over the same
  // rows) instead of by a second query (a coach's page of 50 at 100,000 patients: 5.3 -> 4.2 ms). SQLite computes
  // the window in a pass of its own, which costs more than its second query (2.6 against 1.3 + 0.3 ms).
  // The same for a search's matches on PostgreSQL (all of them are read before the sort anyway): a count by a
  // query of its own read the rows again, or walked the name order's index comparing each (its INCLUDE columns make
  // that look cheap to the planner: "meier" at 100,000 patients, 9 ms).
  const windowed = postgres && (caseload || (matchesFirst && !countFirst));
  let query: AnyQuery;
  if (deferred) {
    const keys = [...new Set([...order.map((o) => orderColumn(table, o.field)), 'id'])].map((column) => `${table}.${column}`);
    const halvedKeys = halvedAs((q) => q.select(keys as never));
    const ids = ordered((halvedKeys ? halvedKeys.clearSelect() : base).select(`${table}.id` as never))
      .limit(limit)
      .offset(filter.skip);
    query = ordered(base.selectAll(table as never).where(`${table}.id` as never, 'in', ids as never));
  } else if (windowed && caseload) query = caseloadPage(db, ordered, base, table, limit, filter.skip);
  else {
    if (!matchesFirst) query = ordered(halved ?? base.selectAll(table as never));
    else if (postgres) query = ordered(matchesFirstOf(db, base, table));
    else query = ordered(base.selectAll(table as never), true);
    if (windowed) query = query.select(sql<number>`count(*) over ()`.as(TOTAL));
  }
  const paged = deferred || (windowed && caseload);
  const rows = limit === 0 ? [] : ((await (paged ? query : query.limit(limit).offset(filter.skip)).execute()) as Row[]);
  // Counted first, more than the count went to: a last page still says where the list ends.
  if (countFirst) return { rows, total: rows.length > 0 && rows.length < limit ? filter.skip + rows.length : undefined };
  const windowCount = windowed && rows.length > 0 ? Number(rows[0][TOTAL]) : undefined;
  if (windowed) for (const row of rows) delete row[TOTAL];
  if (windowCount !== undefined) return { rows, total: caseload || windowCount <= COUNT_LIMIT ? windowCount : undefined };
  if (plan && !plan.walk) return { rows, total: plan.matches > COUNT_LIMIT ? undefined : plan.matches };
  // A page that is not full ends the list: its total is known without counting (unless skip went past the end).
  if (rows.length > 0 && rows.length < limit) return { rows, total: filter.skip + rows.length };
  if (rows.length === 0 && filter.skip === 0 && limit > 0) return { rows, total: 0 };
  // More matches than the count went to.
  if (plan?.walk && plan.many) return { rows, total: undefined };
  if (counted) return { rows, total: await counted(COUNT_LIMIT) };
  if (beyondCount) return { rows, total: undefined };
  // A walked search (a common word, or one PostgreSQL's trigram counts allow more than SEARCH_WALK.from for): its
  // matches counted up to what a walk of the name order counts, reading that many of them, not COUNT_LIMIT ("k m" at
  // 100,000 patients: 2.4 ms for 1,000 on PostgreSQL).
  if (plan?.walk) return { rows, total: await cappedCount(db, base, TRIGRAM_WALK.countLimit) };
  if (halved) return { rows, total: await countMatches(db, scoped, base, filter.where!, table, COUNT_LIMIT) };
  return { rows, total: await cappedCount(db, matchesFirst && postgres ? matchesFirstOf(db, base, table) : base) };
}

/**
 * Matches of a search beyond which it walks the list's order instead of sorting them (see searchPlan; tests lower
 * it); in an order whose index holds the search keys, from fewer: the walk reads index entries only, about as many
 * as the page's rows divided by the matches' share ("anna", 2,194 of 100,000 patients, by end of aftercare: about
 * 1,300 entries, 0.2 ms on SQLite, where reading and sorting every match took 2.8).
 */
export const SEARCH_WALK = { from: 5000, fromInKeyedOrder: 1000 };

/** The patient list's orders whose indexes hold the search keys after their own columns (migration 133). */
const KEYED_ORDERS = new Set(['patientCode', 'aftercareEnd', 'lastDataAt']);

/** A search's list: its scope, the scope with the filter's where, the where and its words, the order. */
interface SearchList {
  scoped: AnyQuery;
  compared: AnyQuery;
  table: string;
  where: Record<string, unknown>;
  words: SearchWords;
  order: readonly { field: string; direction: 'asc' | 'desc' }[];
  ordered: Ordered;
  leading: Leading;
}

/**
 * A search beyond one caseload in an order whose index holds the search keys (migration 133), when it certainly
 * matches more than TRIGRAM_WALK.countLimit patients (SQLite's trigram index counts that far; elsewhere a trigram's
 * patients show it, trigram-walk.ts matchesBeyond): the order walked, each entry compared in the index without its
 * row being read (walk-or-sort.ts walkOrder), about as many entries as the page's rows divided by the matches' share,
 * the same at any size. Sorting the matches cost as many more at 100,000 patients as there were ("ja" by last data,
 * 2,388 matches: x2.7 the CPU of 10,000). Its total: counted up to COUNT_LIMIT where the trigram index counts without
 * reading rows (SQLite, a search alone); else none, as for a walk of the name order past its count. Undefined when
 * it matches fewer, or is not known to; 'many' when the walk's reach does not hold the page (the matches are rare at
 * the order's start: a surname's among the patients without data, who come first in the name order), for the caller
 * to sort them.
 */
async function keyedSearchPage(
  db: Db,
  list: SearchList,
  page: { skip: number; limit: number },
  counted: Counted | undefined,
): Promise<{ rows: Row[]; total: number | undefined } | 'many' | undefined> {
  const cap = TRIGRAM_WALK.countLimit;
  const many = counted ? (await counted(cap)) === undefined : await matchesBeyond(db, list.compared, list.where, cap, list.words);
  if (!many) return undefined;
  const columns = list.order.map((o) => orderColumn(list.table, o.field));
  const walk = (scoped: AnyQuery) => walkOrder(db, list.table, scoped, list.where, list.ordered, { leading: list.leading, columns, ...page });
  // Where the order starts with the patients without data, by name: from the first match among them on.
  const start = await emptyGroupStart(db, list);
  const rows = (start && (await walk(start))) || (await walk(list.scoped));
  if (!rows) return 'many';
  return { rows, total: counted ? await counted(COUNT_LIMIT) : undefined };
}

/**
 * An order whose first field is empty for some patients, who come first (SQLite ascending, PostgreSQL descending) in
 * the name order (the client's "Letzte Daten" sorts: the patients without data by name): those patients from where
 * the search's first match among them lies in that order on (trigram-walk.ts nameOrderStart), for a walk of them.
 * Nobody before it matches, so a page a walk from there finds is the list's page. "mül" by last data at 100,000
 * patients: the walk read 2,500 patients without data before the Müllers, missed, and the matches were sorted after
 * all. Undefined where the order is another, the field has no empty value, or no match is among them.
 */
async function emptyGroupStart(db: Db, list: SearchList): Promise<AnyQuery | undefined> {
  const [, next] = list.order;
  if (!list.leading.emptyFirst || next?.field !== 'lastName' || next.direction !== 'asc') return undefined;
  const field = `${list.table}.${list.leading.field}`;
  const start = await nameOrderStart(db, list.scoped.where(field as never, 'is', null), list.words);
  if (start === undefined || start === null) return undefined;
  return list.scoped.where(field as never, 'is', null).where(`${list.table}.${orderColumn(list.table, 'lastName')}` as never, '>=', start as never);
}

/**
 * How a search of patients beyond one coach's caseload finds its page, or undefined for the index's matches sorted
 * and counted as any list. Asking the trigram index for every match and sorting them costs as many matches as
 * there are, and a word many names contain has a share of the whole table: "sch" matched 20,055 of 100,000
 * patients, 18 ms of CPU on SQLite against 3.5 at 10,000. Walking the list's order instead and comparing each row
 * reads about as many rows as the page needs divided by the share that matches. On SQLite the matches are counted
 * in the index up to SEARCH_WALK.from (index entries only, 0.2 ms for 5,000): fewer are sorted, more walk the
 * order. On PostgreSQL a count would read the rows (the trigram index is lossy: 11 ms for 5,000); the per-trigram
 * patient counts (migration 128) say at most how many match instead, and above SEARCH_WALK.from it walks. A word
 * of one or two letters has no trigram to look up (SQLite's index read every row once per
 * column, "er" 382 ms at 100,000 patients; PostgreSQL 57); a rare one was walked by the trigrams that have it
 * (trigram-walk.ts), a common one is in many names: it walks the order on both; its total is counted up to
 * TRIGRAM_WALK.countLimit matches, as a walk of the name order counts (reading that many).
 */
async function searchPlan(
  db: Db,
  table: string,
  filter: ParsedFilter,
  counted: Counted | undefined,
  from: number,
): Promise<{ walk: true; many: boolean } | { walk: false; matches: number } | undefined> {
  if (!keyedLikesHaveTrigrams(filter.where, table)) return { walk: true, many: false };
  if (db.getExecutor().adapter instanceof PostgresAdapter)
    return (await trigramBound(db, filter.where!, table)) > from ? { walk: true, many: false } : undefined;
  if (!counted) return undefined;
  const matches = await counted(from);
  return matches === undefined ? { walk: true, many: true } : { walk: false, matches };
}

/** PostgreSQL: at most how many patients a search matches, from the counts of its trigrams (migration 128). */
async function trigramBound(db: Db, where: Record<string, unknown>, table: string): Promise<number> {
  const trigrams = [...new Set(searchTrigrams(where, table))];
  if (trigrams.length === 0) return Number.POSITIVE_INFINITY;
  const { rows } = await sql<{ trigram: string; patients: number }>`select trigram, patients from search_trigram_counts
    where trigram in (${sql.join(trigrams)})`.execute(db);
  const counts = new Map(rows.map((row) => [row.trigram, Number(row.patients)]));
  return matchBound(where, table, (trigram) => counts.get(trigram) ?? 0);
}

/** The window count's column of a caseload's page (no table has a column of this name). */
const TOTAL = '__listTotal';

/**
 * PostgreSQL, a page of one coach's caseload: its rows sorted and counted by their ids and sort keys alone, then the
 * page's rows read whole. Sorting and counting the whole rows (every column of a few hundred patients, for the 51
 * shown) took a third more of the database's time (2.2 -> 1.7 ms a page at 100,000 patients, EXPLAIN ANALYZE).
 */
function caseloadPage(db: Db, ordered: (q: AnyQuery) => AnyQuery, base: AnyQuery, table: string, limit: number, skip: number): AnyQuery {
  const page = ordered(base.select([`${table}.id as ${PAGE_ID}` as never, sql<number>`count(*) over ()`.as(TOTAL)]))
    .limit(limit)
    .offset(skip);
  // biome-ignore lint/suspicious/noExplicitAny: the page is a derived table Kysely's types do not know
  const joined = (db as any).selectFrom(page.as('page')).innerJoin(table, `${table}.id`, `page.${PAGE_ID}`);
  return ordered(joined.selectAll(table).select(`page.${TOTAL}`) as AnyQuery);
}
/** The id column of caseloadPage's inner page (no table has a column of this name). */
const PAGE_ID = '__pageId';

/**
 * What the caller's scope leaves of a table: 'all' its rows (an administrator's patients), `caseloadOf` one coach's
 * patients (primary or in the care team: a few hundred rows whatever the instance's size). Unknown scopes (and
 * other tables) take the general path.
 */
export type ListScope = 'all' | { caseloadOf: string };

type Ordered = (q: AnyQuery, unindexed?: boolean) => AnyQuery;

/**
 * The list's order on a query, the id as the last tie-breaker. `unindexed`: SQLite, the first term as `+column`,
 * which sorts the same but keeps the order's index from being walked (the matches are found by the filter's index
 * and sorted instead).
 */
function orderedBy(table: string, order: readonly { field: string; direction: 'asc' | 'desc' }[]): Ordered {
  return (q, unindexed = false) => {
    let sorted = q;
    for (const [i, o] of order.entries()) {
      const column = `${table}.${orderColumn(table, o.field)}`;
      sorted = sorted.orderBy(i === 0 && unindexed ? sql`+${sql.ref(column)}` : column, o.direction);
    }
    return order.some((o) => o.field === 'id') ? sorted : sorted.orderBy(`${table}.id`, 'asc');
  };
}

/**
 * A page of a filter beside the order (walk-or-sort.ts), beyond one caseload: its matches counted first, up to
 * ORDER_WALK.from (the count is the list's total). Few: their page sorted from the index that finds them. More: a
 * walk of the order; when the walk misses, a status's matches sorted from its index, which holds the sort keys
 * (migration 132); 'sort' for any other filter, which the caller sorts.
 */
async function besideOrderPage(
  db: Db,
  list: {
    scoped: AnyQuery;
    base: AnyQuery;
    table: string;
    where: Record<string, unknown>;
    order: readonly { field: string }[];
    ordered: Ordered;
    leading: Leading;
  },
  page: { skip: number; limit: number },
): Promise<{ rows: Row[]; total: number | undefined } | 'sort'> {
  const { scoped, table, where, ordered } = list;
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // SQLite: the field whose range selects the fewest rows leads (range-sample.ts); PostgreSQL's histograms know it.
  const base = (!postgres && (await ledBySmallestRange(db, scoped, table, where))) || list.base;
  const counted = await countMatches(db, scoped, base, where, table);
  const keys = list.order.map((o) => orderColumn(table, o.field));
  if (counted !== undefined) {
    // Few: the page's ids sorted from the filter's index, then only its rows read; none when the count ends first.
    if (counted <= page.skip) return { rows: [], total: counted };
    return { rows: await fewMatchesPage(db, base, table, keys, ordered, page), total: counted };
  }
  const walked =
    (await emptyLastPage(db, list, keys, page)) ?? (await walkOrder(db, table, scoped, where, ordered, { leading: list.leading, columns: keys, ...page }));
  if (walked) return { rows: walked, total: undefined };
  // A status whose patients come last in the order ("Geplant" by end of aftercare, or by last data, which the planned
  // have none of): sorted by their keys from the status's index, then the page's rows read. Read and sorted whole,
  // "Geplant" by last data took 12 ms at 100,000 patients on PostgreSQL, by end of aftercare 5.4 ms on SQLite. (The
  // level's index holds no sort keys: with them PostgreSQL walked it backwards for "latest data first" and sorted
  // every patient without data, 12 ms.)
  if (table !== 'patients' || !conjuncts(where).some((c) => 'aftercareStart' in c || 'aftercareEnd' in c)) return 'sort';
  const rows = await fewMatchesPage(db, base, table, keys, ordered, page);
  return { rows, total: rows.length > 0 && rows.length < page.limit ? page.skip + rows.length : undefined };
}

/**
 * In an order whose first field may be empty and whose empty values come last (PostgreSQL ascending, SQLite
 * descending), with a filter that does not compare that field: the matches with a value there, counted (up to
 * ORDER_WALK.from) and sorted, then those without, walked from the start of the empty values in the order's index,
 * which orders them by name. "Geplant" by last data: the planned have no data yet; a walk from the order's start read
 * 2,500 patients with data for none (6 ms on PostgreSQL at 100,000 patients, each row read for its status), then
 * every planned patient was sorted. Undefined when the matches with a value are more (the walk from the start finds
 * them), or the walk of the empty ones misses.
 */
async function emptyLastPage(
  db: Db,
  list: { scoped: AnyQuery; table: string; where: Record<string, unknown>; ordered: Ordered; leading: Leading },
  keys: string[],
  page: { skip: number; limit: number },
): Promise<Row[] | undefined> {
  const { scoped, table, where, ordered, leading } = list;
  const column = orderColumn(table, leading.field);
  if (leading.emptyFirst || compares(where, leading.field) || !(await canBeEmpty(db, table, column))) return undefined;
  const field = `${table}.${column}`;
  const filled = scoped.where(field as never, 'is not', null).where((eb) => whereExpression(eb, where, table));
  const counted = await cappedCount(db, filled, ORDER_WALK.from);
  if (counted === undefined) return undefined;
  const first =
    counted > page.skip ? await fewMatchesPage(db, filled, table, keys, ordered, { skip: page.skip, limit: Math.min(page.limit, counted - page.skip) }) : [];
  if (first.length === page.limit) return first;
  const empty = scoped.where(field as never, 'is', null);
  const rest = await walkOrder(db, table, empty, where, ordered, {
    leading,
    columns: keys,
    skip: Math.max(0, page.skip - counted),
    limit: page.limit - first.length,
  });
  return rest && [...first, ...rest];
}

/** A filter's matches up to `cap` (by default ORDER_WALK.from, walk-or-sort.ts), in two halves where emptyOrSplit finds them. */
async function countMatches(
  db: Db,
  scoped: AnyQuery,
  base: AnyQuery,
  where: Record<string, unknown>,
  table: string,
  cap = ORDER_WALK.from,
): Promise<number | undefined> {
  const halves = emptyOrSplit(where);
  if (!halves) return cappedCount(db, base, cap);
  let sum = 0;
  const sqlite = !(db.getExecutor().adapter instanceof PostgresAdapter);
  for (const half of halves) {
    const led = sqlite ? await ledBySmallestRange(db, scoped, table, half) : undefined;
    const count = await cappedCount(db, led ?? scoped.where((eb) => whereExpression(eb, half, table)), cap - sum);
    if (count === undefined) return undefined;
    sum += count;
  }
  return sum;
}

/** The number of rows when at most `cap`, else undefined: reads at most `cap` + 1 rows. */
async function cappedCount(db: Db, base: AnyQuery, cap = COUNT_LIMIT): Promise<number | undefined> {
  const count = await rowsOf(db, base.select((eb) => eb.lit(1).as('one')).limit(cap + 1));
  return count > cap ? undefined : count;
}

/** A count up to a cap: the number of rows when at most `cap`, else undefined. */
type Counted = (cap: number) => Promise<number | undefined>;

/** `count`, asked again only when what it answered before does not tell (an exact number tells every cap). */
function countedOnce(count: Counted): Counted {
  let exact: number | undefined;
  let beyond = -1;
  return async (cap) => {
    if (exact !== undefined) return exact <= cap ? exact : undefined;
    if (cap <= beyond) return undefined;
    const counted = await count(cap);
    if (counted === undefined) beyond = cap;
    else exact = counted;
    return counted;
  };
}

/**
 * SQLite, a search over every patient: the rows the name index finds, counted in the index up to `cap`,
 * without reading each patient the way the general count does (at 100,000 patients, "mül": 1.7 -> 0.3 ms).
 */
async function cappedMatches(db: Db, searchIndex: string, query: string, cap = COUNT_LIMIT): Promise<number | undefined> {
  const capped = sql<{
    count: number;
  }>`select count(*) as count from (select rowid from ${sql.table(searchIndex)} where ${sql.table(searchIndex)} match ${query} limit ${cap + 1})`;
  const count = Number((await capped.execute(db)).rows[0]?.count ?? 0);
  return count > cap ? undefined : count;
}

/**
 * A page of a filter's few matches (counted first): their ids and sort keys sorted, from the index that finds them
 * where it holds the keys, then the page's rows read. Sorting the matches' whole rows read each of them: "Endet bald"
 * with "gelb" by name at 100,000 patients is 623 rows for a page of 25 (PostgreSQL 3.0 -> 1.0 ms). SQLite by rowid,
 * the first sort term as `+column` in both steps: it sorts the same, but keeps the order's index from being walked
 * for the matches, or for the page's rows.
 */
async function fewMatchesPage(db: Db, base: AnyQuery, table: string, keys: string[], ordered: Ordered, page: { skip: number; limit: number }): Promise<Row[]> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // The OFFSET 0 fence: see matchesFirstOf.
    const matches = base.select([...new Set([...keys, 'id'])].map((key) => `${table}.${key}`) as never).offset(0);
    const ids = ordered(db.selectFrom(matches.as(table) as never).select(`${table}.id` as never) as unknown as AnyQuery)
      .limit(page.limit)
      .offset(page.skip);
    return (await ordered(
      db
        .selectFrom(table as never)
        .selectAll()
        .where(`${table}.id` as never, 'in', ids as never) as unknown as AnyQuery,
    ).execute()) as Row[];
  }
  const rowid = sql.ref(`${table}.rowid`);
  const rowids = ordered(base.select(rowid.as('rowid')), true)
    .limit(page.limit)
    .offset(page.skip);
  const rows = db
    .selectFrom(table as never)
    .selectAll(table as never)
    .where(rowid, 'in', rowids as never) as unknown as AnyQuery;
  return (await ordered(rows, true).execute()) as Row[];
}

/**
 * PostgreSQL, the filter's matches first (an index finds them), then their order: without the fence (OFFSET 0 keeps
 * the planner from merging the two) it may walk the order's index and test every row on the way, which for a name in
 * the middle of the alphabet, or a filter whose rows come last in the order, is most of the table.
 */
function matchesFirstOf(db: Db, base: AnyQuery, table: string): AnyQuery {
  return db
    .selectFrom(
      base
        .selectAll(table as never)
        .offset(0)
        .as(table) as never,
    )
    .selectAll() as unknown as AnyQuery;
}

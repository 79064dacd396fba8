import type { Db } from '../db/index.ts';
import type { AnyQuery, Row } from '../resource/definition.ts';
import { type SqlBool, sql } from 'kysely';
import { whereExpression } from './filter.ts';

/*
 * A filtered page in an order of its own (the administrator's patients by name, filtered to "Letzte Daten: gelb"):
 * the database can either find the filter's matches by their index and sort them all, or walk the order's index and
 * compare each row until the page is full. The first costs as many rows as match, the second about the page's rows
 * divided by the share that matches. Neither database knows that share: SQLite has no histograms (a range is one
 * fourth, two one sixty-fourth of the table) and PostgreSQL takes two conditions as independent ("Geplant" and data
 * within two days: nearly never together). Both chose wrongly in turn, and the wrong choice grew with the table:
 * "gelb" by name sorted its 15,858 matches at 100,000 patients on SQLite (12 ms, 3 at 10,000), "Geplant" with "gelb"
 * by code walked the whole code order on PostgreSQL for its no match (64 ms, 1.9).
 *
 * So the matches are counted first, up to the count the list reports anyway (list-page.ts COUNT_LIMIT, read from the
 * filter's index), and the count decides: few are sorted (about the same few at any size); more are looked for in a
 * walk of the order of bounded length (walkOrder), which finds a page of a share of one in ORDER_WALK.rowsPerPageRow
 * or more at any size, and sorted when it does not. A condition on the order's first field stays where the index can
 * seek it (an export's "from the last row on").
 */

/** The filter's conditions that must hold together: the top level's fields and the members of its `and`. */
export function conjuncts(where: Record<string, unknown>): Record<string, unknown>[] {
  return Object.entries(where).flatMap(([key, condition]) =>
    key === 'and' ? (condition as Record<string, unknown>[]).flatMap(conjuncts) : [{ [key]: condition }],
  );
}

/** Every field a condition compares. */
function fieldsOf(condition: Record<string, unknown>): string[] {
  return Object.entries(condition).flatMap(([key, value]) => (key === 'and' || key === 'or' ? (value as Record<string, unknown>[]).flatMap(fieldsOf) : [key]));
}

/** True when a condition compares only `field`. */
const onlyOn = (condition: Record<string, unknown>, field: string) => fieldsOf(condition).every((f) => f === field);

/** True when the filter compares `field` anywhere. */
export const compares = (where: Record<string, unknown>, field: string) => fieldsOf(where).includes(field);

/** True when the filter has a condition off the order's first field: one whose index would compete with the order's. */
export function filtersBesideOrder(where: Record<string, unknown>, leadingField: string): boolean {
  return conjuncts(where).some((condition) => !onlyOn(condition, leadingField));
}

/**
 * The filter as two that select no row in common, when it has a condition "a field is empty or <comparison>" ("Letzte
 * Daten: grau", no data or none for 30 days): each half can be counted from an index that seeks it, where the whole
 * cannot. PostgreSQL read the whole last-data index for that count (its empty values sit at the index's end: 7 ms at
 * 100,000 patients, 0.25 at 10,000). Undefined for any other filter.
 */
export function emptyOrSplit(
  where: Record<string, unknown>,
  which: (condition: Record<string, unknown>) => boolean = () => true,
): [Record<string, unknown>, Record<string, unknown>] | undefined {
  const all = conjuncts(where);
  const at = all.findIndex((condition) => isEmptyOr(condition) && which(condition));
  if (at < 0) return undefined;
  const rest = all.filter((_, i) => i !== at);
  const [a, b] = all[at].or as Record<string, unknown>[];
  return [{ and: [...rest, a] }, { and: [...rest, b] }];
}

/** The order's first term, and whether the database puts empty values first in it (SQLite ascending, PostgreSQL descending). */
export interface Leading {
  field: string;
  descending: boolean;
  emptyFirst: boolean;
}

/**
 * The first `rows` rows of `scoped` filtered by `where` in the order, as a derived table named `table` for the caller
 * to order and page, when `where` has "the order's first field is empty or <comparison>" ("Letzte Daten: grau" by last
 * data) and that is not where a walk of the order's index starts; undefined otherwise. The two halves are each a range
 * of the order's index (the empty values sit at one end of it), each read in order up to `rows`, and merged. As one
 * condition, PostgreSQL found "grau" by last data by reading every patient without data and sorting them (20,442 at
 * 100,000 patients, 33 ms against 0.2), and SQLite read "grau" latest first by walking the order past every patient
 * with recent data (5.8 ms against 1.0). SQLite, ascending, has the two as one range at the index's start (empty
 * values first, then the oldest): walked as one condition, the walk stops at the page, where the merge reads both.
 */
export function orderedHalves(
  db: Db,
  scoped: AnyQuery,
  table: string,
  where: Record<string, unknown>,
  leading: Leading,
  ordered: (query: AnyQuery) => AnyQuery,
  read: (query: AnyQuery) => AnyQuery,
  rows: number,
): AnyQuery | undefined {
  const halves = emptyOrSplit(where, (condition) => onlyOn(condition, leading.field) && !startsTheWalk(condition, leading));
  if (!halves) return undefined;
  // Each half in a derived table of its own: SQLite takes no ORDER BY or LIMIT in a member of a compound select.
  const [first, second] = halves.map((half) =>
    db
      .selectFrom(
        ordered(read(scoped.where((eb) => whereExpression(eb, half, table))))
          .limit(rows)
          .as(table) as never,
      )
      .selectAll(),
  );
  return db.selectFrom(first.unionAll(second as never).as(table) as never).selectAll() as unknown as AnyQuery;
}

/** True when "empty or <comparison>" is where a walk in this order starts: empty values first, then the compared end. */
function startsTheWalk(condition: Record<string, unknown>, leading: Leading): boolean {
  const members = condition.or as Record<string, unknown>[];
  const compared = members.map((m) => Object.values(m)[0]).find((value) => value !== null) as Record<string, unknown>;
  const lowEnd = Object.keys(compared).every((op) => op === 'lt' || op === 'lte');
  const highEnd = Object.keys(compared).every((op) => op === 'gt' || op === 'gte');
  return leading.emptyFirst && (leading.descending ? highEnd : lowEnd);
}

/** Operators an empty field never matches (`neq`, `nin` and `nlike` can: they are left out). */
const NEVER_EMPTY = new Set(['gt', 'gte', 'lt', 'lte', 'between', 'inq', 'like']);

/** True for `{ or: [{ f: null }, { f: { <operator>: ... } }] }` (either way round) with such an operator. */
function isEmptyOr(condition: Record<string, unknown>): boolean {
  const members = condition.or;
  if (Object.keys(condition).length !== 1 || !Array.isArray(members) || members.length !== 2) return false;
  const [a, b] = members.map((m) => Object.entries(m as Record<string, unknown>));
  if (a.length !== 1 || b.length !== 1 || a[0][0] !== b[0][0]) return false;
  const compared = a[0][1] === null ? b[0][1] : b[0][1] === null ? a[0][1] : undefined;
  if (typeof compared !== 'object' || compared === null) return false;
  const operators = Object.keys(compared);
  return operators.length > 0 && operators.every((op) => NEVER_EMPTY.has(op));
}

/**
 * Matches from which a page walks the order (the count stops there: it is the list's COUNT_LIMIT, and tests lower
 * it), and how far a walk may read: this many rows per row up to the page's end, but no more than `most` rows
 * (the dashboard's caseload of 201 rows walks at most 20,000, and finds them after about 400).
 */
export const ORDER_WALK = { from: 1000, rowsPerPageRow: 100, most: 20_000 };

/** The walk's column that says whether a walked row matches (no table has a column of this name). */
const MATCH = '__walkMatch';

/**
 * The page from a walk of the order, or undefined when the first ORDER_WALK rows of the order do not hold it (the
 * matches are rare there: a filter that goes with the order, as "Geplant" by end of aftercare, whose patients all
 * come last); the caller then sorts the matches. Conditions on the order's first field narrow the walk itself (an
 * index seeks them); the others are compared on the walked rows. The walk carries only the order's keys, the id and
 * whether the row matches (a third of the cost of carrying whole rows: 1,569 rows at 100,000 patients, 0.7 against
 * 1.2 ms on SQLite), and stops at the page's last row; the page's rows are then read by their ids.
 */
export async function walkOrder(
  db: Db,
  table: string,
  scoped: AnyQuery,
  where: Record<string, unknown>,
  ordered: (query: AnyQuery) => AnyQuery,
  page: { leading: Leading; columns: string[]; skip: number; limit: number },
): Promise<Row[] | undefined> {
  const reach = Math.min((page.skip + page.limit) * ORDER_WALK.rowsPerPageRow, ORDER_WALK.most);
  if (reach < page.skip + page.limit) return undefined;
  const all = conjuncts(where);
  const seeked = all.filter((condition) => onlyOn(condition, page.leading.field));
  const compared = all.filter((condition) => !onlyOn(condition, page.leading.field));
  const keys = [...new Set([...page.columns, 'id'])].map((column) => `${table}.${column}`);
  const carried = (query: AnyQuery) => query.select((eb) => [...keys, sql<SqlBool>`(${whereExpression(eb, { and: compared }, table)})`.as(MATCH)] as never);
  const halves = seeked.length ? orderedHalves(db, scoped, table, { and: seeked }, page.leading, ordered, carried, reach) : undefined;
  const narrowed = seeked.length ? scoped.where((eb) => whereExpression(eb, { and: seeked }, table)) : scoped;
  const walked = halves ? ordered(halves).limit(reach) : ordered(carried(narrowed)).limit(reach);
  // Both databases keep the walk's order through the derived table (SQLite as a co-routine, PostgreSQL by its sort
  // keys): the outer order costs no sort, and the walk stops at the page's last row.
  const ids = ordered(
    db
      .selectFrom(walked.as(table) as never)
      .select(`${table}.id` as never)
      .where(sql<SqlBool>`${sql.ref(`${table}.${MATCH}`)}`) as unknown as AnyQuery,
  )
    .limit(page.limit)
    .offset(page.skip);
  const rows = (await ordered(
    db
      .selectFrom(table as never)
      .selectAll()
      .where(`${table}.id` as never, 'in', ids as never) as unknown as AnyQuery,
  ).execute()) as Row[];
  return rows.length === page.limit ? rows : undefined;
}

import * as v from 'valibot';
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { ListFilterSchema } from '../../../contract/schemas/common.ts';
import { badRequest } from './errors.ts';
import { issuesToDetails } from './validate.ts';
import { canonicalTimestamp } from './timestamps.ts';
import { findOddText } from './input-guard.ts';
import { keyedColumns } from '../lib/sort-key.ts';

/** How a field is stored; decides which filter values are valid and how they are encoded. */
export type FieldKind = 'string' | 'number' | 'boolean' | 'date' | 'json';
export type FieldMap = Record<string, FieldKind>;

export interface ParsedFilter {
  where: Record<string, unknown> | undefined;
  order: { field: string; direction: 'asc' | 'desc' }[];
  limit: number | undefined;
  skip: number;
}

/** Reads a JSON-encoded query value (docs/contract.md#transport: every query value is JSON). Bad JSON is a 400. */
export function jsonQueryValue(query: Record<string, unknown>, name: string): unknown {
  const raw = query[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw badRequest(`Query value "${name}" must be given once`, [{ path: name, message: 'Given more than once' }], 'INVALID_QUERY');
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw badRequest(`Query value "${name}" is not valid JSON`, [{ path: name, message: 'Invalid JSON' }], 'INVALID_QUERY');
  }
  // "\u0000" in the JSON text is a NUL only after parsing: the same 400 as a NUL anywhere else.
  const odd = findOddText(value, name);
  if (odd) throw badRequest(odd.message, [odd], 'INVALID_TEXT');
  return value;
}

const OPERATORS = new Set(['like', 'nlike', 'inq', 'nin', 'gt', 'gte', 'lt', 'lte', 'neq', 'between']);

/**
 * Parses and checks the `filter` query value against the fields of a resource. Every field name in
 * where/order must exist (unknown fields are a 400, never silently ignored) and every value must fit
 * the field's kind, so a filter can never reach SQL it was not meant to.
 */
export function parseFilter(query: Record<string, unknown>, fields: FieldMap): ParsedFilter {
  const raw = jsonQueryValue(query, 'filter') ?? {};
  const result = v.safeParse(ListFilterSchema, raw);
  if (!result.success) {
    throw badRequest(
      'Invalid filter',
      issuesToDetails(result.issues).map((d) => ({ ...d, path: `filter${d.path ? `.${d.path}` : ''}` })),
      'INVALID_FILTER',
    );
  }
  const filter = result.output;
  // The JSON as sent, not valibot's copy: its record() leaves out "__proto__", "constructor" and "prototype" keys,
  // which would turn a condition on them into no condition at all (every row) instead of a 400.
  const sentWhere = (raw as { where?: unknown }).where;
  const where = sentWhere === undefined ? undefined : checkWhere(sentWhere, fields, 'filter.where');
  const orderList = filter.order === undefined ? [] : Array.isArray(filter.order) ? filter.order : [filter.order];
  const order = orderList.map((entry, i) => {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)(?:\s+(ASC|DESC))?\s*$/i.exec(entry);
    if (!match || !Object.hasOwn(fields, match[1])) {
      throw badRequest(
        'Invalid order',
        [{ path: `filter.order${orderList.length > 1 ? `.${i}` : ''}`, message: `Unknown field or direction: ${entry}` }],
        'INVALID_FILTER',
      );
    }
    return { field: match[1], direction: (match[2]?.toLowerCase() ?? 'asc') as 'asc' | 'desc' };
  });
  return { where, order, limit: filter.limit, skip: filter.skip ?? 0 };
}

function fail(path: string, message: string): never {
  throw badRequest('Invalid filter', [{ path, message }], 'INVALID_FILTER');
}

/** PostgreSQL's `integer`: every number column is one, and a value outside it is a failed query, not a match. */
const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;
/*
 * What one filter may cost, so that no caller can make a query that runs for minutes. The client's own worst case
 * sets the floor: a name search is an `and` of words, each an `or` of up to ~13 spellings × 3 casings per field
 * as `like` (client/components/patient-search/search-where.ts). With the search box's 100 characters that is
 * nesting 2, about 1,200 conditions and patterns of up to 202 characters with 2 wildcards. Each limit leaves a
 * margin above that; a filter over any of them is a 400 naming the limit (FILTER_TOO_COSTLY).
 */
export const FILTER_LIMITS = {
  /** Nesting of and/or (the search uses 2; SQLite refuses expressions past depth 1000 anyway). */
  depth: 4,
  /** Conditions in the whole filter, each operator of a field one. */
  conditions: 2000,
  /** Characters of one like/nlike pattern. */
  patternLength: 300,
  /** `%` and `_` in one pattern: many wildcards make a like backtrack; the search sends 2. */
  patternWildcards: 8,
  /**
   * Values of one inq/nin: a longer list is no hand-made filter, and each value is a bound parameter (SQLite
   * allows 32766 per statement, PostgreSQL 65535), so a few such lists stay far below either limit.
   */
  listValues: 1000,
} as const;

function tooCostly(path: string, limit: keyof typeof FILTER_LIMITS, message: string): never {
  throw badRequest(`The filter is over its limit ${limit} (${FILTER_LIMITS[limit]})`, [{ path, message }], 'FILTER_TOO_COSTLY');
}

/** Counts the conditions of one filter as they are checked. */
interface Budget {
  conditions: number;
}

function checkPattern(value: string, path: string): string {
  if (value.length > FILTER_LIMITS.patternLength) tooCostly(path, 'patternLength', `At most ${FILTER_LIMITS.patternLength} characters`);
  const wildcards = value.match(/[%_]/g)?.length ?? 0;
  if (wildcards > FILTER_LIMITS.patternWildcards) tooCostly(path, 'patternWildcards', `At most ${FILTER_LIMITS.patternWildcards} wildcards (% or _)`);
  return value;
}

function checkValue(kind: FieldKind, value: unknown, path: string): unknown {
  if (value === null) return null;
  switch (kind) {
    case 'json':
      return fail(path, 'This field cannot be filtered');
    case 'number':
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < INT_MIN || value > INT_MAX) {
        return fail(path, `Expected a whole number from ${INT_MIN} to ${INT_MAX}`);
      }
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') return fail(path, 'Expected a boolean');
      return value;
    case 'date': {
      if (typeof value !== 'string') return fail(path, 'Expected a date string');
      // Stored timestamps are UTC with milliseconds; a bound in another notation is compared in that form.
      return canonicalTimestamp(value) ?? value;
    }
    default:
      if (typeof value !== 'string') return fail(path, 'Expected a string');
      return value;
  }
}

/**
 * Checks `where` against the field map and returns it with values in their stored form. Field names must
 * be the map's own properties: "constructor", "__proto__" or "toString" are unknown fields, not inherited
 * members of a plain object.
 */
function checkWhere(where: unknown, fields: FieldMap, path: string, budget: Budget = { conditions: 0 }, depth = 0): Record<string, unknown> {
  if (where === null || typeof where !== 'object' || Array.isArray(where)) fail(path, 'Expected an object');
  if (depth > FILTER_LIMITS.depth) tooCostly(path, 'depth', `Conditions may be nested at most ${FILTER_LIMITS.depth} deep`);
  const checked: Record<string, unknown> = {};
  for (const [key, condition] of Object.entries(where)) {
    const at = `${path}.${key}`;
    if (key === 'and' || key === 'or') {
      if (!Array.isArray(condition)) fail(at, 'Expected an array of conditions');
      checked[key] = condition.map((sub, i) => checkWhere(sub, fields, `${at}.${i}`, budget, depth + 1));
      continue;
    }
    if (!Object.hasOwn(fields, key)) fail(at, 'Unknown field');
    const kind = fields[key];
    if (condition !== null && typeof condition === 'object' && !Array.isArray(condition)) {
      const entries = Object.entries(condition);
      if (entries.length === 0) fail(at, 'Empty condition');
      const ops: Record<string, unknown> = {};
      for (const [op, value] of entries) {
        if (!OPERATORS.has(op)) fail(`${at}.${op}`, 'Unknown operator');
        countCondition(budget, `${at}.${op}`);
        if (op === 'inq' || op === 'nin' || op === 'between') {
          if (!Array.isArray(value) || (op === 'between' && value.length !== 2))
            fail(`${at}.${op}`, op === 'between' ? 'Expected [from, to]' : 'Expected an array');
          if (value.length > FILTER_LIMITS.listValues) tooCostly(`${at}.${op}`, 'listValues', `At most ${FILTER_LIMITS.listValues} values`);
          ops[op] = value.map((item, i) => checkValue(kind, item, `${at}.${op}.${i}`));
        } else if (op === 'like' || op === 'nlike') {
          // Patterns compare text: number and boolean columns are no text in PostgreSQL (lower() of an integer fails).
          if (typeof value !== 'string' || (kind !== 'string' && kind !== 'date')) fail(`${at}.${op}`, 'Expected a text pattern on a text field');
          ops[op] = checkPattern(value, `${at}.${op}`);
        } else {
          ops[op] = checkValue(kind, value, `${at}.${op}`);
        }
      }
      checked[key] = ops;
    } else {
      countCondition(budget, at);
      checked[key] = checkValue(kind, condition, at);
    }
  }
  return checked;
}

function countCondition(budget: Budget, path: string): void {
  budget.conditions++;
  if (budget.conditions > FILTER_LIMITS.conditions) tooCostly(path, 'conditions', `At most ${FILTER_LIMITS.conditions} conditions in one filter`);
}

/** Stored form of a filter value: booleans are 0/1 in every dialect. */
function encode(value: unknown): unknown {
  return typeof value === 'boolean' ? (value ? 1 : 0) : value;
}

/**
 * A like/nlike, case-insensitive on every dialect. % and _ are the wildcards; a backslash is an ordinary character
 * on both engines (PostgreSQL would otherwise read it as its escape character). Names, codes and phone numbers
 * given as digits are compared by their stored keys (lib/sort-key.ts), a plain column each, so no function runs
 * per row: "gunther" and "guenther" find "Günther", "nk4821" finds "NK-4821", "0301234" finds "030 / 1234".
 * A field with two keys matches when either does.
 */
function likeExpression(
  // biome-ignore lint/suspicious/noExplicitAny:as whereExpression
  eb: ExpressionBuilder<any, any>,
  ref: (field: string) => Expression<unknown>,
  table: string | undefined,
  field: string,
  like: string,
  negated: boolean,
): Expression<SqlBool> {
  const escaped = (pattern: string) => sql<string>`${pattern.replace(/\\/g, '\\\\')} escape '\\'`;
  const keyed = keyedColumns(table, field).flatMap((k) => {
    const pattern = k.pattern(like);
    return pattern === null ? [] : [{ column: k.column, pattern }];
  });
  const compared = keyed.length
    ? keyed.map((k) => ({ column: ref(k.column), pattern: k.pattern }))
    : [{ column: eb.fn('lower', [ref(field)]), pattern: like.toLowerCase() }];
  const tests = compared.map((c) => eb(c.column, negated ? 'not like' : 'like', escaped(c.pattern)));
  return tests.length === 1 ? tests[0] : negated ? eb.and(tests) : eb.or(tests);
}

/**
 * The conditions of an and/or list without repeats, a like counting as its keyed patterns: a client that asks
 * for "%müller%", "%Müller%" and "%mueller%" (for APIs that compare as written) costs one comparison here.
 */
function distinct(conditions: Record<string, unknown>[], table: string | undefined): Record<string, unknown>[] {
  const seen = new Set<string>();
  return conditions.filter((condition) => {
    const signature = JSON.stringify(Object.entries(condition).map(([field, value]) => [field, likeSignature(table, field, value) ?? value]));
    if (seen.has(signature)) return false;
    seen.add(signature);
    return true;
  });
}

function likeSignature(table: string | undefined, field: string, value: unknown): string[] | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const ops = Object.entries(value);
  const keyed = keyedColumns(table, field);
  if (ops.length !== 1 || (ops[0][0] !== 'like' && ops[0][0] !== 'nlike') || keyed.length === 0) return undefined;
  const like = ops[0][1] as string;
  return [ops[0][0], ...keyed.map((k) => k.pattern(like) ?? `=${like.toLowerCase()}`)];
}

/** Turns a checked `where` into a Kysely expression (dialect-neutral SQL only). */
export function whereExpression(
  // biome-ignore lint/suspicious/noExplicitAny:filters apply to every resource table; columns are checked against the resource's field list first
  eb: ExpressionBuilder<any, any>,
  where: Record<string, unknown>,
  table?: string,
  searchIndex?: SearchIndex,
): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [];
  const ref = (field: string) => eb.ref(table ? `${table}.${field}` : field);
  for (const [key, condition] of Object.entries(where)) {
    if (key === 'and' || key === 'or') {
      let list = distinct(condition as Record<string, unknown>[], table);
      const searched = searchIndex && key === 'or' ? indexedSearch(eb, list, table!, searchIndex) : undefined;
      if (searched) {
        parts.push(searched);
        continue;
      }
      if (searchIndex && key === 'and') {
        const matched = matchAll(eb, list, table!, searchIndex);
        if (matched) parts.push(matched.expression);
        list = matched?.rest ?? list;
      }
      const subs = list.map((sub) => whereExpression(eb, sub, table, searchIndex));
      if (subs.length) parts.push(key === 'and' ? eb.and(subs) : eb.or(subs));
      continue;
    }
    if (condition === null) {
      parts.push(eb(ref(key), 'is', null));
    } else if (typeof condition === 'object' && !Array.isArray(condition)) {
      for (const [op, value] of Object.entries(condition)) {
        switch (op) {
          case 'like':
          case 'nlike':
            parts.push(
              (searchIndex && op === 'like' && indexedSearch(eb, [{ [key]: condition }], table!, searchIndex)) ||
                likeExpression(eb, ref, table, key, value as string, op === 'nlike'),
            );
            break;
          case 'inq':
          case 'nin': {
            const list = (value as unknown[]).map(encode);
            if (list.length === 0) parts.push(op === 'inq' ? sql<SqlBool>`1 = 0` : sql<SqlBool>`1 = 1`);
            else parts.push(eb(ref(key), op === 'inq' ? 'in' : 'not in', list));
            break;
          }
          case 'between': {
            const [from, to] = value as unknown[];
            parts.push(eb.and([eb(ref(key), '>=', encode(from)), eb(ref(key), '<=', encode(to))]));
            break;
          }
          case 'neq':
            parts.push(value === null ? eb(ref(key), 'is not', null) : eb.or([eb(ref(key), '!=', encode(value)), eb(ref(key), 'is', null)]));
            break;
          default: {
            const sqlOp = ({ gt: '>', gte: '>=', lt: '<', lte: '<=' } as const)[op as 'gt'];
            parts.push(eb(ref(key), sqlOp, encode(value)));
          }
        }
      }
    } else {
      parts.push(eb(ref(key), '=', encode(condition)));
    }
  }
  return eb.and(parts);
}

/**
 * The keyed columns and patterns of an `or` of likes on keyed fields (the client's name search: every spelling of a
 * word in every name field); undefined when any condition is something else, or a pattern has no key.
 */
function likeTerms(conditions: Record<string, unknown>[], table: string): { column: string; pattern: string }[] | undefined {
  const terms: { column: string; pattern: string }[] = [];
  for (const condition of conditions) {
    const entries = Object.entries(condition);
    if (entries.length !== 1) return undefined;
    const [field, value] = entries[0];
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const ops = Object.entries(value);
    if (ops.length !== 1 || ops[0][0] !== 'like') return undefined;
    const keyed = keyedColumns(table, field).map((k) => ({ column: k.column, pattern: k.pattern(ops[0][1] as string) }));
    if (keyed.length === 0 || keyed.some((k) => k.pattern === null)) return undefined;
    terms.push(...(keyed as { column: string; pattern: string }[]));
  }
  return terms.length ? terms : undefined;
}

/**
 * The trigram index's query for "contains": `%text%` with at least three characters and no wildcard becomes the
 * phrase "text" (FTS5 finds a phrase of a trigram index as a substring, as the LIKE would); anything else undefined.
 */
function containsPhrase(pattern: string): string | undefined {
  const text = /^%([^%_]+)%$/.exec(pattern)?.[1];
  if (text === undefined || [...text].length < 3) return undefined;
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * An `or` of likes as one FTS5 query, when every pattern is a plain "contains" of three or more characters: each
 * text once, with the columns it is looked for in (`{firstNameKey lastNameKey}: "text" OR ...`). The client sends a
 * word in several spellings and fields that come to the same key; asked once per spelling and column, the index
 * read the same trigram lists up to fifteen times (a two-word search at 100,000 patients: 9.2 -> 1.4 ms).
 */
function matchQuery(conditions: Record<string, unknown>[], table: string): string | undefined {
  const columnsOf = new Map<string, Set<string>>();
  for (const term of likeTerms(conditions, table) ?? []) {
    const phrase = containsPhrase(term.pattern);
    if (phrase === undefined) return undefined;
    columnsOf.set(phrase, (columnsOf.get(phrase) ?? new Set()).add(term.column));
  }
  if (columnsOf.size === 0) return undefined;
  return `(${[...columnsOf].map(([phrase, columns]) => `{${[...columns].join(' ')}}: ${phrase}`).join(' OR ')})`;
}

/**
 * A trigram index (SQLite FTS5 over a table's key columns) and how its matches are used: as the rows to read
 * (then sorted), or, `inOrder`, as a set each row of the list's order is looked up in while the order is walked.
 */
export interface SearchIndex {
  name: string;
  inOrder?: boolean;
}

/** The row's rowid, as the match set is compared with; `+` keeps SQLite from reading the rows by it (inOrder). */
const rowidOf = (table: string, searchIndex: SearchIndex) => (searchIndex.inOrder ? sql`+${sql.ref(`${table}.rowid`)}` : sql.ref(`${table}.rowid`));

/** The rows the trigram index finds for an FTS5 query. */
function matching(
  // biome-ignore lint/suspicious/noExplicitAny:as whereExpression
  eb: ExpressionBuilder<any, any>,
  table: string,
  searchIndex: SearchIndex,
  query: string,
): Expression<SqlBool> {
  const index = sql.table(searchIndex.name);
  return eb(rowidOf(table, searchIndex), 'in', sql`(select rowid from ${index} where ${index} match ${query})`);
}

/**
 * The searchable members of an `and` (each an `or` of likes, or one like, on keyed fields) asked of the trigram index
 * in one query: "anna sch" is one walk of the index that intersects both words, instead of two sets of tens of
 * thousands of rows intersected afterwards (121 -> 4 ms at 100,000 patients). `rest` is what the query does not
 * cover; undefined when it covers nothing.
 */
function matchAll(
  // biome-ignore lint/suspicious/noExplicitAny:as whereExpression
  eb: ExpressionBuilder<any, any>,
  list: Record<string, unknown>[],
  table: string,
  searchIndex: SearchIndex,
): { expression: Expression<SqlBool>; rest: Record<string, unknown>[] } | undefined {
  const queries: string[] = [];
  const rest: Record<string, unknown>[] = [];
  for (const sub of list) {
    const keys = Object.keys(sub);
    const query = keys.length === 1 ? matchQuery(keys[0] === 'or' ? (sub.or as Record<string, unknown>[]) : [sub], table) : undefined;
    if (query) queries.push(query);
    else rest.push(sub);
  }
  if (queries.length === 0) return undefined;
  return { expression: matching(eb, table, searchIndex, queries.join(' AND ')), rest };
}

/**
 * An `or` of likes on keyed fields asked of the trigram full-text index (SQLite FTS5 over the key columns, migration
 * 114): the index finds the matching rows instead of a LIKE on every row. One FTS5 query when every pattern is a
 * plain "contains" of three or more characters; otherwise one LIKE per column on the index, joined with UNION (FTS5
 * uses its index for each, but not for an OR of columns). Undefined when any condition is something else, or a
 * pattern has no key (then the plain comparison runs). The index compares without ESCAPE: on SQLite a backslash in
 * a pattern is an ordinary character either way, and FTS5 would not use its index with one.
 */
function indexedSearch(
  // biome-ignore lint/suspicious/noExplicitAny:as whereExpression
  eb: ExpressionBuilder<any, any>,
  conditions: Record<string, unknown>[],
  table: string,
  searchIndex: SearchIndex,
): Expression<SqlBool> | undefined {
  const query = matchQuery(conditions, table);
  if (query) return matching(eb, table, searchIndex, query);
  const terms = likeTerms(conditions, table);
  // A pattern without three characters in a row has no trigram: the index would read every row, once per column.
  if (!terms?.every((k) => hasTrigram(k.pattern))) return undefined;
  const tests = terms.map((k) => sql`select rowid from ${sql.table(searchIndex.name)} where ${sql.ref(k.column)} like ${k.pattern}`);
  return eb(rowidOf(table, searchIndex), 'in', sql`(${sql.join(tests, sql` union `)})`);
}

/**
 * The trigram index's query when it is the whole of `where` (a name search and nothing else: one like, an `or` of
 * likes, or an `and` of such, each a plain "contains" of three or more characters); otherwise undefined. The rows
 * such a filter selects are exactly the rows the index finds.
 */
export function searchOnly(where: Record<string, unknown>, table: string): string | undefined {
  const keys = Object.keys(where);
  if (keys.length !== 1) return undefined;
  const [key] = keys;
  if (key === 'or') return matchQuery(where.or as Record<string, unknown>[], table);
  if (key !== 'and') return matchQuery([where], table);
  const queries = (where.and as Record<string, unknown>[]).map((sub) => searchOnly(sub, table));
  return queries.length > 0 && queries.every((q) => q !== undefined) ? queries.join(' AND ') : undefined;
}

/** Whether a like pattern has three characters in a row that are no wildcards: a trigram an index can look up. */
function hasTrigram(pattern: string): boolean {
  return pattern.split(/[%_]/).some((run) => [...run].length >= 3);
}

/**
 * True when every like on a keyed field in `where` can be looked up by trigram (SQLite's FTS5 index, PostgreSQL's
 * pg_trgm): a search of one or two letters cannot, and is answered by walking the list's order instead. A key a
 * pattern does not apply to (letters for the phone number's) is not compared, so it does not count.
 */
export function keyedLikesHaveTrigrams(where: Record<string, unknown> | undefined, table: string): boolean {
  if (!where) return true;
  return Object.entries(where).every(([key, condition]) => {
    if (key === 'and' || key === 'or') return (condition as Record<string, unknown>[]).every((sub) => keyedLikesHaveTrigrams(sub, table));
    return (keyedPatterns(key, condition, table) ?? []).every(hasTrigram);
  });
}

/** Each three characters in a row of a like pattern's literal parts. */
function trigramsOf(pattern: string): string[] {
  return pattern.split(/[%_]/).flatMap((run) => {
    const chars = [...run];
    return chars.slice(0, -2).map((_, i) => chars.slice(i, i + 3).join(''));
  });
}

/** The keyed patterns of a like on a keyed field, or undefined for any other condition. */
function keyedPatterns(field: string, condition: unknown, table: string): string[] | undefined {
  if (keyedColumns(table, field).length === 0 || typeof condition !== 'object' || condition === null) return undefined;
  const ops = Object.entries(condition);
  if (ops.length !== 1 || ops[0][0] !== 'like' || typeof ops[0][1] !== 'string') return undefined;
  const like = ops[0][1];
  return [...new Set(keyedColumns(table, field).flatMap((k) => k.pattern(like) ?? []))];
}

/** Every trigram of the keyed likes in `where`. */
export function searchTrigrams(where: Record<string, unknown>, table: string): string[] {
  return Object.entries(where).flatMap(([key, condition]) =>
    key === 'and' || key === 'or'
      ? (condition as Record<string, unknown>[]).flatMap((sub) => searchTrigrams(sub, table))
      : (keyedPatterns(key, condition, table) ?? []).flatMap(trigramsOf),
  );
}

/**
 * At most how many rows `where` selects, from how many rows have each trigram in a key (`rows`): a pattern no more
 * than its rarest trigram, an `or` no more than its members together, an `and` no more than its smallest member.
 * Infinity where that tells nothing (a pattern without a trigram, any other condition).
 */
export function matchBound(where: Record<string, unknown>, table: string, rows: (trigram: string) => number): number {
  const ofPatterns = (patterns: Iterable<string>) => [...patterns].reduce((sum, pattern) => sum + Math.min(...trigramsOf(pattern).map(rows)), 0);
  const bounds = Object.entries(where).map(([key, condition]) => {
    const list = condition as Record<string, unknown>[];
    if (key === 'and') return Math.min(...list.map((sub) => matchBound(sub, table, rows)));
    if (key === 'or') {
      // A word in several spellings and fields comes to a few patterns of the keys: each counted once.
      const patterns = new Set<string>();
      let others = 0;
      for (const sub of list) {
        const entries = Object.entries(sub);
        const keyed = entries.length === 1 ? keyedPatterns(entries[0][0], entries[0][1], table) : undefined;
        if (keyed) for (const pattern of keyed) patterns.add(pattern);
        else others += matchBound(sub, table, rows);
      }
      return others + ofPatterns(patterns);
    }
    const patterns = keyedPatterns(key, condition, table);
    return patterns ? ofPatterns(patterns) : Number.POSITIVE_INFINITY;
  });
  // The members of one object are and-ed.
  return Math.min(...bounds);
}

/** True when `where` has a like on a keyed field anywhere (a name, code or phone search). */
export function hasKeyedLike(where: Record<string, unknown> | undefined, table: string): boolean {
  if (!where) return false;
  return Object.entries(where).some(([key, condition]) => {
    if (key === 'and' || key === 'or') return (condition as Record<string, unknown>[]).some((sub) => hasKeyedLike(sub, table));
    return keyedColumns(table, key).length > 0 && typeof condition === 'object' && condition !== null && Object.hasOwn(condition, 'like');
  });
}

/**
 * A key pattern as a walk of trigrams' rows finds its rows: by its trigrams (a row it selects has all of them), or,
 * for a "contains" of one or two letters ("%oz%"), by those letters, which a row it selects has within one of its
 * key's trigrams, or as a key of fewer than three characters.
 */
export type WalkPattern = { trigrams: string[] } | { letters: string };

/** The letters of a "contains" of one or two letters (no wildcard, no escape), else undefined. */
function shortLetters(pattern: string): string | undefined {
  return /^%([^%_\\]{1,2})%$/u.exec(pattern)?.[1];
}

/**
 * For a walk of trigrams' rows in the list's order (http/trigram-walk.ts): per word of `where` that can be walked, how
 * each of its key patterns finds its rows (in one of `covered`, the key columns the walk's table holds). A word is an
 * `or` of likes on keyed fields, or one such like, and-ed with the rest of `where`; it can be walked when each of its
 * likes is compared only with covered key columns, by patterns of three characters in a row or more, or of one or
 * two letters. Empty when no word can.
 */
export function walkTrigrams(where: Record<string, unknown>, table: string, covered: ReadonlySet<string>): WalkPattern[][] {
  return Object.entries(where).flatMap(([key, condition]) => {
    if (key === 'and') return (condition as Record<string, unknown>[]).flatMap((sub) => walkTrigrams(sub, table, covered));
    const patterns = wordPatterns(key === 'or' ? (condition as Record<string, unknown>[]) : [{ [key]: condition }], table, covered);
    return patterns
      ? [
          patterns.map((pattern): WalkPattern => {
            const letters = hasTrigram(pattern) ? undefined : shortLetters(pattern);
            return letters === undefined ? { trigrams: [...new Set(trigramsOf(pattern))] } : { letters };
          }),
        ]
      : [];
  });
}

/** The distinct key patterns of a word's likes, or undefined when one of them cannot be walked. */
function wordPatterns(likes: Record<string, unknown>[], table: string, covered: ReadonlySet<string>): string[] | undefined {
  const patterns = new Set<string>();
  for (const like of likes) {
    const entries = Object.entries(like);
    if (entries.length !== 1) return undefined;
    const [field, condition] = entries[0];
    const columns = keyedColumns(table, field);
    const keyed = keyedPatterns(field, condition, table);
    if (!keyed || columns.length === 0 || !columns.every((c) => covered.has(c.column))) return undefined;
    // A key a pattern does not apply to is compared as written instead: a row could match there without the trigrams.
    if (columns.some((c) => c.pattern((condition as { like: string }).like) === null)) return undefined;
    for (const pattern of keyed) patterns.add(pattern);
  }
  return patterns.size > 0 && [...patterns].every((p) => hasTrigram(p) || shortLetters(p) !== undefined) ? [...patterns] : undefined;
}

/**
 * True when every row that has `trigram` in one of `columns` is selected by `where`: it is one like or an `or` of
 * likes on keyed fields, and compares each of the columns with a plain "contains" of text the trigram holds ("%oz%"
 * for "ozt"). Then a trigram's rows are counted without being read (http/trigram-walk.ts matchesBeyond).
 */
export function matchedByTrigram(where: Record<string, unknown>, table: string, columns: readonly string[], trigram: string): boolean {
  const keys = Object.keys(where);
  if (keys.length !== 1 || keys[0] === 'and') return false;
  const terms = likeTerms(keys[0] === 'or' ? (where.or as Record<string, unknown>[]) : [where], table);
  const held = (pattern: string) => {
    const text = /^%([^%_\\]+)%$/u.exec(pattern)?.[1];
    return text !== undefined && trigram.includes(text);
  };
  return terms !== undefined && columns.every((column) => terms.some((term) => term.column === column && held(term.pattern)));
}

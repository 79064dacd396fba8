import { PostgresAdapter, type SqlBool, sql } from 'kysely';
import { TRIGRAM_ORDER, TRIGRAM_ORDER_KEYS } from '../db/migrations/129-trigram-name-order.ts';
import { TRIGRAM_COUNTS } from '../db/migrations/128-search-trigram-counts.ts';
import type { Db } from '../db/index.ts';
import type { AnyQuery, Row } from '../resource/definition.ts';
import { matchedByTrigram, type ParsedFilter, type WalkPattern, walkTrigrams } from './filter.ts';
import { SHORT_KEYS } from '../db/migrations/131-short-key-patients.ts';
import { rowsOf } from './rows-of.ts';

/*
 * A name search's page in the name order from the patients that have its trigrams, in that order (migration 129):
 * for one word of the search, a trigram every key pattern of it has (or, when they share none or only common ones,
 * each pattern's rarest: "müller" is asked as "muller" and "mueller"), whose patients are walked from the start of
 * the order and compared with the whole filter until the page is full. A word's matches nearly all have its rarest
 * trigram and few others do, so the page is found after about as many entries as it has rows, at any instance size:
 * "mar" at 100,000 patients read 26 entries instead of sorting its 3,960 matches. Each trigram's walk reads no more
 * than TRIGRAM_WALK.entries(skip + limit) entries (several are merged up to where the first of them was cut); a page
 * not full by then (a trigram most of whose patients do not match) is answered as before (http/list-page.ts), so a
 * bad guess costs a bounded walk. A word of one or two letters ("oz") has no trigram of its own: it walks every
 * trigram that has its letters, merged ("ozt": the Öztürks, who sit at one place of the name order, 70% of it in),
 * and the patients whose key is too short for any trigram (migration 131).
 */

const COVERED = new Set(TRIGRAM_ORDER_KEYS);

/** How many of a trigram's entries a page may read: enough for a word one in five of whose trigram's patients match. */
export const TRIGRAM_WALK = {
  /** Off: every search is answered as before (tests compare the two). */
  enabled: true,
  entries: (rows: number) => 200 + 5 * rows,
  /**
   * The first, shorter walk (no longer than `entries`): where most of a trigram's patients match (a surname's, "mar"
   * as a word of its own), the page is among its first entries at any instance size. Only a page not full by then is
   * walked again as far as `entries` allows. "müller" at 100,000 patients read 325 entries of each of its two
   * trigrams for a page of 25, 1.5 ms of SQLite, where 72 gave the same page in 0.34.
   */
  firstEntries: (rows: number) => 20 + 2 * rows,
  /**
   * A full walked page's total, where no index counts it (PostgreSQL, or a filter with more than names): its matches
   * counted on the walk up to this many (about 2 µs each on PostgreSQL, more where they are rare among the walk's
   * entries); more answer without a total. The client's searches ask one row more than they show instead of reading it.
   */
  countLimit: 200,
  /**
   * A word of one or two letters is walked by every trigram that has them: by no more than this many (a common one,
   * "an" in 22, is found as soon along the name order; the walk merges each trigram's patients up to the page's end).
   */
  mostTrigrams: 12,
  /**
   * Entries of each trigram read for where a search's first match lies in the name order (nameOrderStart): among
   * the patients without data, a fifth of an instance's, the first is as a rule among a word's first few.
   */
  startEntries: 50,
};

type Direction = 'asc' | 'desc';

/**
 * The direction of the name order (last name, first name, id, as the walk's table is ordered), or undefined for any
 * other order. The id may be left out when ascending: the list breaks ties by the id ascending.
 */
function nameOrderDirection(order: readonly { field: string; direction: Direction }[]): Direction | undefined {
  const [last, first, id] = order;
  if (order.length < 2 || order.length > 3 || last.field !== 'lastName' || first.field !== 'firstName') return undefined;
  const direction = last.direction;
  if (first.direction !== direction) return undefined;
  if (id ? id.field !== 'id' || id.direction !== direction : direction !== 'asc') return undefined;
  return direction;
}

/** Patients per trigram (search_trigram_counts: migration 128 on PostgreSQL, 129 on SQLite). */
async function trigramCounts(db: Db, trigrams: string[]): Promise<Map<string, number>> {
  const { rows } = await sql<{ trigram: string; patients: number }>`select trigram, patients from ${sql.table(TRIGRAM_COUNTS)}
    where trigram in (${sql.join(trigrams)})`.execute(db);
  return new Map(rows.map((row) => [row.trigram, Number(row.patients)]));
}

/**
 * Patients per trigram that has `letters` in it, for each of the letters, and which letters have more than
 * TRIGRAM_WALK.mostTrigrams such trigrams (of those only that many and one are read: "k m" read 911 of the counts'
 * 6,563 trigrams at 100,000 patients, 1.6 ms, to find out that neither can be walked).
 */
async function trigramsWith(db: Db, letters: string[]): Promise<{ counts: Map<string, number>; tooMany: Set<string> }> {
  if (letters.length === 0) return { counts: new Map(), tooMany: new Set() };
  const within = (l: string) => (db.getExecutor().adapter instanceof PostgresAdapter ? sql`strpos(trigram, ${l}) > 0` : sql`instr(trigram, ${l}) > 0`);
  const most = TRIGRAM_WALK.mostTrigrams;
  const each = letters.map(
    (l) =>
      sql`select * from (select cast(${l} as text) as letters, trigram, patients from ${sql.table(TRIGRAM_COUNTS)} where ${within(l)} limit ${most + 1}) as listed`,
  );
  const { rows } = await sql<{ letters: string; trigram: string; patients: number }>`${sql.join(each, sql` union all `)}`.execute(db);
  const read = new Map<string, number>();
  for (const row of rows) read.set(row.letters, (read.get(row.letters) ?? 0) + 1);
  return { counts: new Map(rows.map((row) => [row.trigram, Number(row.patients)])), tooMany: new Set(letters.filter((l) => (read.get(l) ?? 0) > most)) };
}

/** What a walk reads: the entries of these trigrams, and with `shortKeys` the patients with a key too short for one. */
export interface Walked {
  trigrams: string[];
  /** Patients of the trigrams together (a patient with several counted for each). */
  size: number;
  /** Walked for a word of one or two letters. */
  letters: boolean;
  shortKeys: boolean;
  /** Patients of each trigram looked at (search_trigram_counts). */
  counts: ReadonlyMap<string, number>;
  /** The search's words (each and-ed with the others). */
  words: number;
}

/**
 * The trigrams to walk for the search's words, or undefined when the cheapest word has more than
 * TRIGRAM_WALK.mostTrigrams of them. A pattern of three letters or more is walked by one trigram: of each word the
 * one all its patterns share that the fewest patients have, or each pattern's rarest together when that are fewer.
 * A pattern of one or two letters by every trigram that has them (and the patients with a short key). Of the words
 * the one whose trigrams have the fewest patients.
 */
async function walkedTrigrams(db: Db, words: WalkPattern[][]): Promise<Walked | undefined> {
  const patterns = words.flat();
  const long = patterns.flatMap((p) => ('trigrams' in p ? p.trigrams : []));
  const letters = [...new Set(patterns.flatMap((p) => ('letters' in p ? [p.letters] : [])))];
  const withLetters = await trigramsWith(db, letters);
  const counts = new Map([...(long.length ? await trigramCounts(db, [...new Set(long)]) : []), ...withLetters.counts]);
  const count = (t: string) => counts.get(t) ?? 0;
  const rarest = (trigrams: string[]) => trigrams.reduce((best, t) => (count(t) < count(best) ? t : best));
  const size = (trigrams: string[]) => trigrams.reduce((sum, t) => sum + count(t), 0);
  const choices = words.map((word): Walked => {
    const short = word.some((p) => 'letters' in p);
    const union = [...new Set(word.flatMap((p) => ('letters' in p ? [...counts.keys()].filter((t) => t.includes(p.letters)) : [rarest(p.trigrams)])))];
    // Letters in more trigrams than a walk merges: only some of them were read, and the word is not walked.
    const tooMany = word.some((p) => 'letters' in p && withLetters.tooMany.has(p.letters));
    if (short) return { trigrams: union, size: tooMany ? Number.POSITIVE_INFINITY : size(union), letters: true, shortKeys: false, counts, words: 1 };
    const shared = word.map((p) => ('trigrams' in p ? p.trigrams : [])).reduce((common, trigrams) => common.filter((t) => trigrams.includes(t)));
    const trigrams = shared.length > 0 && count(rarest(shared)) <= size(union) ? [rarest(shared)] : union;
    return { trigrams, size: size(trigrams), letters: false, shortKeys: false, counts, words: 1 };
  });
  const best = { ...choices.reduce((a, b) => (b.size < a.size ? b : a)), words: words.length };
  if (best.trigrams.length > TRIGRAM_WALK.mostTrigrams || best.size === Number.POSITIVE_INFINITY) return undefined;
  // Without such patients (as a rule) the walk is one trigram's alone, which stops at the page's last row.
  return best.letters ? { ...best, shortKeys: await anyShortKeys(db) } : best;
}

/** A search's walkable words with their trigrams (walkedTrigrams), read at most once per list call. */
export type SearchWords = () => Promise<Walked | undefined>;

export function searchWords(db: Db, where: Record<string, unknown>): SearchWords {
  let read: Promise<Walked | undefined> | undefined;
  return () => {
    read ??= (async () => {
      const words = walkTrigrams(where, 'patients', COVERED);
      return words.length ? await walkedTrigrams(db, words) : undefined;
    })();
    return read;
  };
}

/**
 * Per word of the search (each and-ed with the others) whose every pattern has trigrams, the rarest trigram of each
 * pattern and its patients (search_trigram_counts): a patient that matches the search has, for each such word, one of
 * them in its keys. Undefined when the search's trigrams were not read (a word of one or two letters in too many).
 */
export async function rarestTrigrams(where: Record<string, unknown>, trigrams: SearchWords): Promise<{ trigram: string; patients: number }[][] | undefined> {
  const walked = await trigrams();
  if (!walked) return undefined;
  const count = (trigram: string) => walked.counts.get(trigram) ?? 0;
  const rarest = (of: string[]) => of.reduce((best, trigram) => (count(trigram) < count(best) ? trigram : best));
  return walkTrigrams(where, 'patients', COVERED)
    .filter((patterns) => patterns.every((pattern) => 'trigrams' in pattern && pattern.trigrams.length > 0))
    .map((patterns) =>
      [...new Set(patterns.map((pattern) => rarest((pattern as { trigrams: string[] }).trigrams)))].map((trigram) => ({ trigram, patients: count(trigram) })),
    );
}

/**
 * A search in another order than the name order whose cheapest word is of one or two letters few patients have (its
 * trigrams' patients no more than `most`): the ids of the patients that can match (a subquery), for the caller to
 * compare and sort; else undefined. Walking the other order instead compares every row up to the page's rows, which
 * for a rare word is every row ("zz" by end of aftercare at 100,000 patients: 45 ms).
 */
export async function letterCandidates(db: Db, where: Record<string, unknown>, most: number, trigrams = searchWords(db, where)): Promise<AnyQuery | undefined> {
  if (!TRIGRAM_WALK.enabled) return undefined;
  const walked = await trigrams();
  if (!walked?.letters || walked.size > most) return undefined;
  const short = db
    .selectFrom('patients')
    .select('id')
    .where(walked.shortKeys ? sql<SqlBool>`(${sql.raw(SHORT_KEYS)})` : sql<SqlBool>`1 = 0`);
  if (walked.trigrams.length === 0) return short as unknown as AnyQuery;
  const entries = db
    .selectFrom(TRIGRAM_ORDER as never)
    .select('id' as never)
    .where('trigram' as never, 'in', walked.trigrams as never);
  return (walked.shortKeys ? entries.union(short as never) : entries) as unknown as AnyQuery;
}

/**
 * Whether a search of patients (`base`: the list's query with the filter's where) certainly selects more than `cap`
 * of them: its matches among the patients of one trigram of its word (of those the one most patients have), counted
 * up to `cap` + 1 on at most twice as many of them, each compared with the whole filter.
 * False when they do not show it (the search may still match more); no query when that trigram has too few patients.
 */
export async function matchesBeyond(db: Db, base: AnyQuery, where: Record<string, unknown>, cap: number, trigrams = searchWords(db, where)): Promise<boolean> {
  if (!TRIGRAM_WALK.enabled) return false;
  const walked = await trigrams();
  // Of several words, one word's trigram holds few patients that have the others too ("meier schmidt": its 1,205
  // entries read for none, 2.4 ms on PostgreSQL): such a search is taken to match few.
  if (!walked || walked.trigrams.length === 0 || walked.words > 1) return false;
  const patients = (trigram: string) => walked.counts.get(trigram) ?? 0;
  const largest = walked.trigrams.reduce((best, t) => (patients(t) > patients(best) ? t : best));
  if (patients(largest) <= cap) return false;
  // Every patient of the trigram matches (a word of one or two letters alone, as the client searches): its entries
  // are counted in its index (0.05 ms for "ozt" at 100,000 patients, where reading each patient took 1.4).
  if (matchedByTrigram(where, 'patients', TRIGRAM_ORDER_KEYS, largest)) {
    const entries = db
      .selectFrom(TRIGRAM_ORDER as never)
      .select(sql<number>`1`.as('one'))
      .where('trigram' as never, '=', largest as never)
      .limit(cap + 1);
    return (await rowsOf(db, entries as unknown as AnyQuery)) > cap;
  }
  // As many entries as matches twice over: a word matches most of its trigram's patients, a filter with more than
  // the word may not, and is taken to match few when they do not show it.
  const walk: Walk = { trigrams: [largest], shortKeys: false, direction: 'asc', entries: 2 * (cap + 1) };
  return (await rowsOf(db, matchingEntries(db, base, walk).limit(cap + 1))) > cap;
}

/**
 * The last name key before which none of a search's matches among the patients of `base` (the list's scope, narrowed
 * by the caller) lies in the name order, or null when none of the search's trigrams' patients is one of them (or
 * `base` has none); undefined when the filter has no word to walk. Of each of its trigrams' first
 * TRIGRAM_WALK.startEntries patients in that order, the first that `base` selects, or where the list was cut when
 * none is: the smallest of these. (The
 * search itself is not compared: a trigram's patients hold every match, and an earlier start only walks a little
 * more, where comparing it made PostgreSQL plan the query for longer than it ran, 1.9 against 0.3 ms.) A surname's
 * matches sit at one place of the name order ("mül": the Müllers), which an order whose first field is empty for a
 * part of the list (patients without data, in the name order) reaches only after the names before it
 * (http/list-page.ts).
 */
export async function nameOrderStart(db: Db, base: AnyQuery, trigrams: SearchWords): Promise<string | null | undefined> {
  if (!TRIGRAM_WALK.enabled) return undefined;
  const walked = await trigrams();
  if (!walked) return undefined;
  if (walked.trigrams.length === 0 && !walked.shortKeys) return null;
  const walk: Walk = { ...walked, direction: 'asc', entries: TRIGRAM_WALK.startEntries };
  // Of one list: the first entry `base` selects, and the list's last entry read (none when it has fewer).
  const firstAndCut = (list: AnyQuery) => ({
    first: db
      .selectFrom(list.as('entries'))
      .select('entries.lastNameKey as key' as never)
      .where((eb) => eb.exists(base.select(eb.lit(1).as('one')).whereRef('patients.id', '=', 'entries.id' as never)))
      .orderBy('entries.lastNameKey' as never)
      .orderBy('entries.firstNameKey' as never)
      .orderBy('entries.id' as never)
      .limit(1),
    cut: list
      .clearSelect()
      .select('lastNameKey as key' as never)
      .offset(walk.entries - 1)
      .limit(1),
  });
  // Null too when `base` has no patient at all (no patient is without data).
  const any = base.select(sql<number>`1`.as('one')).limit(1);
  let start: { rows: { start: string | null; any: number | null }[] };
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // One list per trigram of an array: planned once (as a union of a list each, a word of two letters in nine
    // trigrams took PostgreSQL 3.8 ms to plan, and 0.7 to run).
    const each = firstAndCut(inNameOrder(trigramEntries(db).whereRef('trigram' as never, '=', 'listed.trigram' as never), walk));
    const short = walked.shortKeys ? firstAndCut(inNameOrder(shortKeyEntries(db), walk)) : undefined;
    const shortStart = short ? sql`, (${short.first}), (${short.cut})` : sql``;
    start = await sql<{ start: string | null; any: number | null }>`select least(min(least((${each.first}), (${each.cut})))${shortStart}) as start,
      (${any}) as any from unnest(${walked.trigrams}::text[]) as listed(trigram)`.execute(db);
  } else {
    const parts = walkLists(db, walk).flatMap((list) => {
      const { first, cut } = firstAndCut(list);
      return [sql`select * from (${first}) as first`, sql`select * from (${cut}) as cut`];
    });
    start = await sql<{ start: string | null; any: number | null }>`select min(key) as start, (${any}) as any
      from (${sql.join(parts, sql` union all `)}) as starts`.execute(db);
  }
  const [row] = start.rows;
  return row?.any == null ? null : (row.start ?? null);
}

/** Whether any patient has a key too short for a trigram (from migration 131's partial index). */
async function anyShortKeys(db: Db): Promise<boolean> {
  // In the index's order: PostgreSQL otherwise scans the table, expecting a match early, for none.
  const { rows } = await sql`select 1 from patients where (${sql.raw(SHORT_KEYS)}) order by "lastNameKey", "firstNameKey", id limit 1`.execute(db);
  return rows.length > 0;
}

interface Walk {
  trigrams: string[];
  /** The patients with a key of fewer than three characters too (migration 131). */
  shortKeys: boolean;
  direction: Direction;
  /** At most this many entries of each trigram. */
  entries: number;
  /** The last entry (name keys and id) the walk may read: where the first of its trigrams that has more was cut. */
  bound?: { lastNameKey: string; firstNameKey: string; id: string };
}

/** A page of the walk's entries whose patient `base` selects: the entries first, then only the page's rows read whole. */
async function walkedPage(db: Db, base: AnyQuery, page: { skip: number; limit: number }, walk: Walk): Promise<{ walk: Walk; rows: Row[] }> {
  const { direction } = walk;
  const entries = matchingEntries(db, base, walk)
    .orderBy('walk.lastNameKey', direction)
    .orderBy('walk.firstNameKey', direction)
    .orderBy('walk.id', direction)
    .limit(page.limit)
    .offset(page.skip);
  const rows = (await db
    .selectFrom(entries.as('page'))
    .innerJoin('patients', 'patients.id', 'page.id')
    .selectAll('patients')
    .orderBy('page.lastNameKey', direction)
    .orderBy('page.firstNameKey', direction)
    .orderBy('page.id', direction)
    .execute()) as Row[];
  return { walk, rows };
}

/** The walk reading at most `entries` entries of each of its lists. */
async function planWalk(db: Db, walked: Walked, direction: Direction, entries: number): Promise<Walk> {
  const walk: Walk = { ...walked, direction, entries };
  const cuts = walkLists(db, walk).map((list) => sql`select * from (${list.offset(entries - 1).limit(1)}) as cut`);
  const { rows } = await sql<NonNullable<Walk['bound']>>`select * from (${sql.join(cuts, sql` union all `)}) as cuts
    order by "lastNameKey" ${sql.raw(direction)}, "firstNameKey" ${sql.raw(direction)}, id ${sql.raw(direction)} limit 1`.execute(db);
  return { ...walk, bound: rows[0] };
}

/**
 * The walk's lists, each in the name order up to the walk's bound (when it has one), at most `entries` long: each
 * trigram's patients, and the patients with a short key (read from their partial index by its own condition).
 */
function walkLists(db: Db, walk: Walk) {
  const lists = walk.trigrams.map((trigram) => inNameOrder(trigramEntries(db).where('trigram' as never, '=', trigram as never), walk));
  if (walk.shortKeys) lists.push(inNameOrder(shortKeyEntries(db), walk));
  return lists;
}

/** The walk table's entries (id and name keys), for the caller to narrow to a trigram. */
const trigramEntries = (db: Db) => db.selectFrom(TRIGRAM_ORDER as never).select(['id', 'lastNameKey', 'firstNameKey'] as never) as unknown as AnyQuery;

/** The patients with a key too short for a trigram, as entries (read from their partial index by its own condition). */
const shortKeyEntries = (db: Db) =>
  db
    .selectFrom('patients')
    .select(['id', 'lastNameKey', 'firstNameKey'] as never)
    .where(sql<SqlBool>`(${sql.raw(SHORT_KEYS)})`) as unknown as AnyQuery;

/** Entries in the walk's name order up to its bound (when it has one), at most `entries` of them. */
function inNameOrder(query: AnyQuery, walk: Walk): AnyQuery {
  const { bound, direction, entries } = walk;
  return query
    .$if(bound !== undefined, (q) =>
      q.where((eb) =>
        eb(eb.refTuple('lastNameKey', 'firstNameKey', 'id'), direction === 'asc' ? '<=' : '>=', eb.tuple(bound!.lastNameKey, bound!.firstNameKey, bound!.id)),
      ),
    )
    .orderBy('lastNameKey', direction)
    .orderBy('firstNameKey', direction)
    .orderBy('id', direction)
    .limit(entries);
}

/**
 * The walk's entries (each patient once) as a derived table `walk`: each trigram's in the name order up to the bound,
 * at most `entries` of each. One trigram's come from its index in order, so a page stops at its last row.
 */
function walkOf(db: Db, walk: Walk) {
  const { direction } = walk;
  const [first, ...more] = walkLists(db, walk);
  if (more.length === 0) return first.as('walk');
  // A patient with several of the trigrams once. (SQLite takes no ORDER BY inside a UNION's members: each is wrapped.)
  const wrapped = (list: typeof first) => db.selectFrom(list.as('entries')).selectAll();
  const union = more.reduce((all, list) => all.unionAll(wrapped(list)), wrapped(first));
  // In the order again, so a page stops at its last row here too (PostgreSQL merges the ordered parts).
  return db
    .selectFrom(union.as('entries'))
    .selectAll()
    .distinct()
    .orderBy('lastNameKey', direction)
    .orderBy('firstNameKey', direction)
    .orderBy('id', direction)
    .as('walk');
}

/**
 * The walk's entries whose patient `base` selects (`walk.id`, `walk.lastNameKey`, `walk.firstNameKey`), in the walk's
 * order. PostgreSQL is made to look each entry up (a lateral subquery with a limit: it otherwise hashed the entries
 * and compared every patient of the name order's index up to the last of them, a common word 45,000 at 100,000
 * patients), and finds it by its place in the name order's index (last and first name key, id), which holds every
 * search key (migration 128): a patient is compared without being read (2 instead of 8 µs).
 */
function matchingEntries(db: Db, base: AnyQuery, walk: Walk): AnyQuery {
  const keys = ['walk.id', 'walk.lastNameKey', 'walk.firstNameKey'] as const;
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return base.innerJoin(walkOf(db, walk), 'walk.id', 'patients.id').select(keys);
  const patient = base
    .select((eb) => eb.lit(1).as('one'))
    .whereRef('patients.lastNameKey', '=', 'walk.lastNameKey')
    .whereRef('patients.firstNameKey', '=', 'walk.firstNameKey')
    .whereRef('patients.id', '=', 'walk.id')
    .limit(1);
  return db
    .selectFrom(walkOf(db, walk))
    .innerJoinLateral(patient.as('matched'), (join) => join.onTrue())
    .select(keys) as unknown as AnyQuery;
}

/** How the caller counts a list: its total up to `limit`, undefined past it. */
export interface WalkCounts {
  limit: number;
  /** A count that reads no rows (SQLite's trigram index over the whole table): used instead of counting on the walk. */
  cheap?: () => Promise<number | undefined>;
}

/**
 * A page of patients (`base`: the scoped query with the filter's where) found by walking trigrams in the name order,
 * and its total; undefined when the filter has no walkable word, the order is not the name order, or a walk was cut
 * before the page was full (the caller answers as before).
 */
export async function trigramWalkPage(
  db: Db,
  base: AnyQuery,
  filter: ParsedFilter,
  order: readonly { field: string; direction: Direction }[],
  counts: WalkCounts,
  trigrams?: SearchWords,
): Promise<{ rows: Row[]; total: number | undefined } | undefined> {
  const direction = nameOrderDirection(order);
  if (!TRIGRAM_WALK.enabled || !direction || !filter.where || filter.limit === 0) return undefined;
  const limit = filter.limit ?? Number.MAX_SAFE_INTEGER;
  const walked = await (trigrams ?? searchWords(db, filter.where))();
  if (!walked) return undefined;
  // Letters no trigram holds and no short key: nobody can match (and there is nothing to walk).
  if (walked.trigrams.length === 0 && !walked.shortKeys) return { rows: [], total: 0 };
  // Long enough for the page, and where the total is counted on the walk, for that too; a word of one or two letters
  // only for the page (its walk merges several trigrams' patients, each read up to the page's last row).
  const pageRows = filter.skip + Math.min(limit, counts.limit);
  const counting = !counts.cheap && !walked.letters;
  const walkRows = counting ? Math.max(pageRows, Math.min(counts.limit, TRIGRAM_WALK.countLimit) + 1) : pageRows;
  const full = TRIGRAM_WALK.entries(walkRows);
  // Counting on the walk needs its reach anyway; a search of several words finds its page among fewer of the walked
  // word's patients ("anna sch": a first walk of 72 Annas missed, 1.3 ms more at 100,000 patients).
  const first = counting || walked.words > 1 ? full : Math.min(TRIGRAM_WALK.firstEntries(walkRows), full);
  let { walk, rows } = await walkedPage(db, base, { skip: filter.skip, limit }, await planWalk(db, walked, direction, first));
  if (rows.length < limit && walk.bound && first < full)
    ({ walk, rows } = await walkedPage(db, base, { skip: filter.skip, limit }, await planWalk(db, walked, direction, full)));
  if (rows.length < limit) {
    // Cut off before the page was full: the page's rows may lie further on.
    if (walk.bound) return undefined;
    // The walk read all of its trigrams' patients: a page that is not full ends the list.
    if (rows.length > 0 || filter.skip === 0) return { rows, total: filter.skip + rows.length };
  }
  if (counts.cheap) return { rows, total: await counts.cheap() };
  return { rows, total: await walkTotal(db, base, walk, counts) };
}

/**
 * The total of a full page: the walk's matches (it is long enough for TRIGRAM_WALK.countLimit of them, unless they are
 * rarer among its trigram's patients than one in five), when it read all of them and they are no more than that.
 */
async function walkTotal(db: Db, base: AnyQuery, walk: Walk, counts: WalkCounts): Promise<number | undefined> {
  // Cut before it read all of its trigrams' patients: whatever it counted, more may lie further on.
  if (walk.bound) return undefined;
  const limit = Math.min(counts.limit, TRIGRAM_WALK.countLimit);
  const count = await rowsOf(db, matchingEntries(db, base, walk).limit(limit + 1));
  // More than the limit: no total (counting them otherwise would read every match, as many more at 100,000 patients
  // as at 10,000).
  return count > limit ? undefined : count;
}

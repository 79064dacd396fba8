import { PostgresAdapter, sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/index.ts';
import { daysInclusive } from '../../lib/days.ts';
import { overlappingCount } from './day-counts.ts';
import type { Period } from './rules.ts';
import { ROW_ID_INDEX } from './row-ids.ts';

/*
 * Orders by a value that depends on the period, paged without sorting every patient of the period. Many patients
 * of a period share one value of such a field: no call in it (figure 0), still in aftercare on its last day
 * (status "active"), in aftercare all of it (the most days there can be). The table is then two parts one after the
 * other: the patients sharing that value in row id order, which an index walk gives from its start (migration 124),
 * and the others, sorted by value. A page takes its rows from the part it falls in, or from the end of one and the
 * start of the next. At 100,000 patients an administrator's first page by calls took 236 ms of server CPU on
 * PostgreSQL and 80 on SQLite, sorting every patient of the period by a count asked of each.
 */

type Figure = 'phoneCoachings' | 'phoneCoachingMinutes' | 'dayEvaluations';
const FIGURES: readonly string[] = ['phoneCoachings', 'phoneCoachingMinutes', 'dayEvaluations'] satisfies Figure[];
const isFigure = (field: string): field is Figure => FIGURES.includes(field);

/** A patient's records the figure counts (sync_records as `s`), within the period. */
function countedRecords(p: Period, figure: Figure): RawBuilder<boolean> {
  const range = sql`s.date >= ${p.from} and s.date <= ${p.to}`;
  if (figure === 'dayEvaluations') return sql<boolean>`s.collection = 'day-evaluation' and ${range}`;
  return sql<boolean>`s.collection = 'event' and s.type = 'phone-coaching' and s.done = 1 and ${range}`;
}

const figureValue = (figure: Figure) => (figure === 'phoneCoachingMinutes' ? sql`coalesce(sum(s.minutes), 0)` : sql`count(*)`);

/** The figure of one patient (correlated with `patients`), as a page's rows show it. */
export function figureOfPatient(p: Period, figure: Figure): RawBuilder<number> {
  return sql<number>`(select ${figureValue(figure)} from sync_records s where s."patientId" = patients.id and ${countedRecords(p, figure)})`;
}

/** Records that make a patient's figure more than 0 (a call without minutes adds no minutes). */
function positiveRecords(p: Period, figure: Figure): RawBuilder<boolean> {
  return figure === 'phoneCoachingMinutes' ? sql<boolean>`${countedRecords(p, figure)} and s.minutes > 0` : countedRecords(p, figure);
}

/** Whether the patient (`patients`) has a record that makes the figure more than 0 in the period. */
const positiveExists = (p: Period, figure: Figure) =>
  sql<boolean>`exists (select 1 from sync_records s where s."patientId" = patients.id and ${positiveRecords(p, figure)})`;

/**
 * One part of the table: its row ids from `skip` on (all of them without `limit`), and how many rows it has, which
 * is asked only when a page starts after the part's end.
 */
interface Part {
  size(): Promise<number>;
  rowIds(skip: number, limit: number | undefined): Promise<string[]>;
}

export async function pageOfParts(parts: Iterable<Part> | AsyncIterable<Part>, skip: number, limit: number | undefined): Promise<string[]> {
  const ids: string[] = [];
  let offset = skip;
  for await (const part of parts) {
    const wanted = limit === undefined ? undefined : limit - ids.length;
    if (wanted === 0) break;
    const rows = await part.rowIds(offset, wanted);
    ids.push(...rows);
    if (rows.length === wanted) break;
    // The part ended within the page (the next one starts at its beginning) or before it (by its size).
    offset = rows.length > 0 ? 0 : offset - (await part.size());
  }
  return ids;
}

/**
 * The patients of the period (one coach's when it names one) whose row passes `condition`, in row id order.
 * `walk`: read them along the row id index on SQLite, whatever range of an index the condition could use.
 */
export function rowIdPart(db: Db, p: Period, condition: RawBuilder<boolean>, size: () => Promise<number>, walk = false): Part {
  return sortedPart(db, p, condition, [], size, walk);
}

function inPeriod(p: Period): RawBuilder<boolean> {
  const coach = p.coachId ? sql` and patients."primaryCoachId" = ${p.coachId}` : sql``;
  return sql<boolean>`patients."aftercareStart" <= ${p.to} and patients."aftercareEnd" >= ${p.from}${coach}`;
}

/** The row ids `query` selects (as "rowId"), from `skip` on (all of them without `limit`). */
async function paged(db: Db, query: RawBuilder<unknown>, skip: number, limit: number | undefined): Promise<string[]> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // OFFSET without LIMIT: SQLite needs a LIMIT, -1 means none there; PostgreSQL takes ALL.
  const limitClause = limit !== undefined ? sql` limit ${limit}` : skip ? sql.raw(postgres ? ' limit all' : ' limit -1') : sql``;
  const offsetClause = skip ? sql` offset ${skip}` : sql``;
  const { rows } = await sql<{ rowId: string }>`${query}${limitClause}${offsetClause}`.execute(db);
  return rows.map((row) => row.rowId);
}

/**
 * The patients of the period (one coach's when it names one) whose row passes `condition`, in the order of `terms`
 * (each with its direction), then by row id.
 */
export function sortedPart(
  db: Db,
  p: Period,
  condition: RawBuilder<boolean>,
  terms: RawBuilder<unknown>[],
  size: () => Promise<number>,
  walkRowIds = false,
): Part {
  const order = sql.join([...terms, sql`patients."statisticsRowId" asc`]);
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const from = walkRowIds && !postgres ? sql.raw(`patients indexed by ${ROW_ID_INDEX}`) : sql`patients`;
  return {
    size,
    rowIds: (skip, limit) =>
      paged(db, sql`select patients."statisticsRowId" as "rowId" from ${from} where ${inPeriod(p)} and ${condition} order by ${order}`, skip, limit),
  };
}

export async function countInPeriod(db: Db, p: Period, condition: RawBuilder<boolean>): Promise<number> {
  const { rows } = await sql<{ count: number | string }>`select count(*) as count from patients where ${inPeriod(p)} and ${condition}`.execute(db);
  return Number(rows[0]?.count ?? 0);
}

/** A patient's days in aftercare within the period, both ends counted (as the rows show it: rules.ts). */
function daysInPeriod(db: Db, p: Period): RawBuilder<number> {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? sql<number>`least(patients."aftercareEnd", ${p.to})::date - greatest(patients."aftercareStart", ${p.from})::date`
    : sql<number>`julianday(min(patients."aftercareEnd", ${p.to})) - julianday(max(patients."aftercareStart", ${p.from}))`;
}

interface Days {
  rowId: string;
  days: number | string;
}

/**
 * The patients in aftercare for part of the period, by their days in it, then by row id. Three kinds, each in the
 * days' order from an index of a date (migration 124), merged: those in aftercare since before the period until a
 * day in it (the later the end, the more days), those from a day in it until its end or later (the earlier the
 * start, the more), and those whose whole aftercare lies within it (by its length: sorted, but only aftercare
 * shorter than the period). Sorting them all by days read every patient who started or ended in the period, a share
 * of the table (the shortest first at 100,000 patients: x4.5 over 10,000 on SQLite, x3.4 on PostgreSQL). One
 * coach's patients, and pages far in, are sorted as before.
 */
function partlyInPeriod(db: Db, p: Period, direction: 'asc' | 'desc', size: () => Promise<number>): Part {
  const sorted = sortedPart(
    db,
    p,
    sql<boolean>`not (patients."aftercareStart" <= ${p.from} and patients."aftercareEnd" >= ${p.to})`,
    [sql`${daysInPeriod(db, p)} ${sql.raw(direction)}`],
    size,
  );
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const date = (column: string) => (postgres ? sql`patients.${sql.id(column)} collate "C"` : sql`patients.${sql.id(column)}`);
  const [start, end] = [date('aftercareStart'), date('aftercareEnd')];
  const dir = sql.raw(direction);
  const against = sql.raw(direction === 'asc' ? 'desc' : 'asc');
  // Migration 127's index expression; within the period it is the days in it.
  const length = postgres
    ? sql`aftercare_days(patients."aftercareStart", patients."aftercareEnd")`
    : sql`(julianday(patients."aftercareEnd") - julianday(patients."aftercareStart"))`;
  const endsInPeriod = sql<boolean>`${start} <= ${p.from} and ${end} >= ${p.from} and ${end} < ${p.to}`;
  const startsInPeriod = sql<boolean>`${start} > ${p.from} and ${start} <= ${p.to} and ${end} >= ${p.to}`;
  // Aftercare within the period is shorter than it, and comes into the page only up to the days of the page's last row
  // so far (`reach`): the length index is read only that far. One upper bound, the lower of the two: given two,
  // SQLite seeks the index by one and compares the other row by row (fewest first at 100,000 patients: every
  // aftercare of a common length in the instance, 0.07 -> 0.7 ms from 10,000).
  const within = (reach: number | undefined) => {
    const most = daysInclusive(p.from, p.to);
    const lengths =
      reach === undefined
        ? sql`${length} <= ${most}`
        : direction === 'asc'
          ? sql`${length} <= ${Math.min(reach, most)}`
          : sql`${length} >= ${reach} and ${length} <= ${most}`;
    return sql<boolean>`${start} > ${p.from} and ${end} < ${p.to} and ${lengths}`;
  };
  const sign = direction === 'asc' ? 1 : -1;
  const before = (a: Days, b: Days) => sign * (Number(a.days) - Number(b.days)) || (a.rowId < b.rowId ? -1 : a.rowId > b.rowId ? 1 : 0);
  const kind = async (where: RawBuilder<boolean>, order: RawBuilder<unknown>, need: number) =>
    (
      await sql<Days>`select patients."statisticsRowId" as "rowId", ${daysInPeriod(db, p)} as days from patients
        where ${where} order by ${order}, patients."statisticsRowId" asc limit ${need}`.execute(db)
    ).rows;
  return {
    size,
    rowIds: async (skip, limit) => {
      if (p.coachId || limit === undefined || skip + limit > MERGED_PAGES) return sorted.rowIds(skip, limit);
      const need = skip + limit;
      const rows = [...(await kind(endsInPeriod, sql`${end} ${dir}`, need)), ...(await kind(startsInPeriod, sql`${start} ${against}`, need))];
      rows.sort(before);
      const reach = rows.length >= need ? Number(rows[need - 1].days) : undefined;
      rows.push(...(await kind(within(reach), sql`${length} ${dir}`, need)));
      return rows
        .sort(before)
        .slice(skip, need)
        .map((row) => row.rowId);
    },
  };
}

/** Up to where (skip + limit) the patients partly in the period are merged from their kinds. */
const MERGED_PAGES = 1000;

/**
 * By the primary coach's name: one part per name (the coaches of one name together), in the name's order, each
 * part's patients in row id order from an index (migration 124); patients without a coach have the name ''. Parts
 * are made as a page reaches them, the coaches read a batch at a time: a first page mostly needs the patients
 * without a coach and a coach or two, whatever the number of coaches.
 */
async function* coachGroups(db: Db, p: Period, direction: 'asc' | 'desc'): AsyncGenerator<Part> {
  const part = (ids: string[], withoutCoach: boolean) => {
    const coaches = ids.length ? sql<boolean>`patients."primaryCoachId" in (${sql.join(ids)})` : sql<boolean>`false`;
    const condition = withoutCoach ? sql<boolean>`(patients."primaryCoachId" is null or ${coaches})` : coaches;
    return rowIdPart(db, p, condition, () => countInPeriod(db, p, condition));
  };
  if (p.coachId) {
    yield part([p.coachId], false);
    return;
  }
  const name = sql<string>`coalesce("firstNameKey" || ' ' || "lastNameKey", '')`;
  // A coach whose name keys are missing sorts with the patients without a coach.
  const nameless = async () => (await sql<{ id: string }>`select id from coaches where ${name} = ''`.execute(db)).rows.map((row) => row.id);
  if (direction === 'asc') yield part(await nameless(), true);
  let group: { name: string; ids: string[] } | undefined;
  for (let offset = 0; ; offset += COACH_BATCH) {
    const { rows } = await sql<{ id: string; name: string }>`select id, ${name} as name from coaches where ${name} <> ''
      order by name ${sql.raw(direction)}, id limit ${COACH_BATCH} offset ${offset}`.execute(db);
    for (const row of rows) {
      if (group?.name === row.name) group.ids.push(row.id);
      else {
        if (group) yield part(group.ids, false);
        group = { name: row.name, ids: [row.id] };
      }
    }
    if (rows.length < COACH_BATCH) break;
  }
  if (group) yield part(group.ids, false);
  if (direction === 'desc') yield part(await nameless(), true);
}

const COACH_BATCH = 50;
/** A part is walked in row id order when it holds at least one in this many rows of the period. */
const WALK_SHARE = 50;

/** The patients of the period with a figure above 0, by the figure, then by row id. */
function positivePart(db: Db, p: Period, figure: Figure, direction: 'asc' | 'desc', size: () => Promise<number>): Part {
  // One coach's patients are few, whatever the instance's size: each is asked its figure.
  if (p.coachId) return sortedPart(db, p, positiveExists(p, figure), [sql`${figureOfPatient(p, figure)} ${sql.raw(direction)}`], size);
  const figures = sql`(select s."patientId", ${figureValue(figure)} as value from sync_records s where ${positiveRecords(p, figure)}
    group by s."patientId")`;
  const grouped = (skip: number, limit: number | undefined) =>
    paged(
      db,
      sql`select patients."statisticsRowId" as "rowId" from ${figures} figures join patients on patients.id = figures."patientId"
        where ${inPeriod(p)} order by figures.value ${sql.raw(direction)}, patients."statisticsRowId" asc`,
      skip,
      limit,
    );
  return {
    size,
    rowIds: async (skip, limit) =>
      (direction === 'desc' && limit !== undefined && skip + limit <= MOST_FIRST_WALK.largestPage
        ? await mostFirstByTotals(db, p, figure, skip, limit)
        : undefined) ?? grouped(skip, limit),
  };
}

/** The walk's sizes (tests make the first batch small, so a batch ends within patients of equal totals). */
export const MOST_FIRST_WALK = { largestPage: 1000, firstBatch: 50, mostWalked: 4000 };
const TOTAL_COLUMN: Record<Figure, string> = { dayEvaluations: 'dayEvaluations', phoneCoachings: 'calls', phoneCoachingMinutes: 'callMinutes' };

interface Walked {
  rowId: string;
  /** The rows' own row id: the totals' copy (which orders the walk) is filled with it (row-ids.ts). */
  patientRowId: string | null;
  total: number | string;
  value: number | string;
}

/**
 * The page's rows of the positive part, most first, without grouping every record of the period: the patients in
 * the order of their total over all days (patient_figure_totals, migration 126; equal totals by row id), each asked
 * its figure in the period, which is at most its total. The walk ends when no patient after it can come before the
 * page's last row: its total is below that row's figure, or equal to it with a later row id. Patients with many
 * records outside the period can make that far: after MOST_FIRST_WALK.mostWalked patients, or when a row id is
 * still being filled, undefined (the caller groups the period's records instead). CROSS JOIN: SQLite then reads the
 * totals first, as written; without statistics of the table it started from the patients of the period and sorted
 * them (86 instead of 0.1 ms at 100,000 patients).
 */
async function mostFirstByTotals(db: Db, p: Period, figure: Figure, skip: number, limit: number): Promise<string[] | undefined> {
  const total = sql.ref(`t.${TOTAL_COLUMN[figure]}`);
  const need = skip + limit;
  const found: { rowId: string; value: number }[] = [];
  const before = (a: { rowId: string; value: number }, b: { rowId: string; value: number }) =>
    a.value !== b.value ? b.value - a.value : a.rowId < b.rowId ? -1 : a.rowId > b.rowId ? 1 : 0;
  for (let walked = 0, batch = Math.max(MOST_FIRST_WALK.firstBatch, 2 * need); walked < MOST_FIRST_WALK.mostWalked; walked += batch, batch *= 2) {
    const { rows } = await sql<Walked>`select t."statisticsRowId" as "rowId", patients."statisticsRowId" as "patientRowId", ${total} as total,
      ${figureOfPatient(p, figure)} as value
      from patient_figure_totals t cross join patients
      where patients.id = t."patientId" and ${total} > 0 and ${inPeriod(p)}
      order by ${total} desc, t."statisticsRowId" asc limit ${batch} offset ${walked}`.execute(db);
    if (rows.some((row) => row.rowId === null || row.rowId !== row.patientRowId)) return undefined;
    for (const row of rows) if (Number(row.value) > 0) found.push({ rowId: row.rowId, value: Number(row.value) });
    found.sort(before);
    const last = rows.at(-1);
    const pageEnd = found[need - 1];
    const done =
      rows.length < batch ||
      (last !== undefined &&
        pageEnd !== undefined &&
        (Number(last.total) < pageEnd.value || (Number(last.total) === pageEnd.value && last.rowId >= pageEnd.rowId)));
    if (done) return found.slice(skip, need).map((row) => row.rowId);
  }
  return undefined;
}

/** From the period's records: patient by patient would read every patient of the period (SQLite, calls at 100,000 patients: 59 -> 0.3 ms). */
async function positiveCount(db: Db, p: Period, figure: Figure): Promise<number> {
  const { rows } = await sql<{ count: number | string }>`select count(*) as count from patients
    where ${inPeriod(p)} and patients.id in (select s."patientId" from sync_records s where ${positiveRecords(p, figure)})`.execute(db);
  return Number(rows[0]?.count ?? 0);
}

/**
 * The row ids of one page of an order by a figure or by status, or undefined for any other order. `total`: the
 * patients of the period (with the coach filter), as the caller counted them.
 */
export async function splitOrderRowIds(
  db: Db,
  p: Period,
  order: { field: string; direction: 'asc' | 'desc' },
  page: { limit?: number; skip?: number },
  total: number,
): Promise<string[] | undefined> {
  const skip = page.skip ?? 0;
  if (isFigure(order.field)) {
    const figure = order.field;
    const zero = rowIdPart(db, p, sql<boolean>`not ${positiveExists(p, figure)}`, async () => total - (await positiveCount(db, p, figure)));
    const others = positivePart(db, p, figure, order.direction, () => positiveCount(db, p, figure));
    return pageOfParts(order.direction === 'asc' ? [zero, others] : [others, zero], skip, page.limit);
  }
  if (order.field === 'primaryCoachName') return pageOfParts(coachGroups(db, p, order.direction), skip, page.limit);
  if (order.field === 'daysInAftercare') {
    // The most days there can be: in aftercare from the period's first day to its last.
    const whole = sql<boolean>`patients."aftercareStart" <= ${p.from} and patients."aftercareEnd" >= ${p.to}`;
    const wholeCount = () => countInPeriod(db, p, whole);
    const wholePart = rowIdPart(db, p, whole, wholeCount);
    const others = partlyInPeriod(db, p, order.direction, async () => total - (await wholeCount()));
    return pageOfParts(order.direction === 'asc' ? [others, wholePart] : [wholePart, others], skip, page.limit);
  }
  if (order.field === 'status') {
    // In the period nobody is planned (that would start after its end): active on its last day, or completed.
    const active = await overlappingCount(db, { ...p, from: p.to });
    // SQLite would read the range of ends in the period and sort it, a share of the table; in row id order a page
    // reads its rows and the few between them, unless one of the two is rare (x1.6 from 10,000 to 100,000
    // patients for the completed ones first).
    const walk = (count: number) => count * WALK_SHARE >= total;
    const activePart = rowIdPart(db, p, sql<boolean>`patients."aftercareEnd" >= ${p.to}`, async () => active, walk(active));
    const completedPart = rowIdPart(db, p, sql<boolean>`patients."aftercareEnd" < ${p.to}`, async () => total - active, walk(total - active));
    // "active" < "completed", as the words compare.
    return pageOfParts(order.direction === 'asc' ? [activePart, completedPart] : [completedPart, activePart], skip, page.limit);
  }
  return undefined;
}

import { expressionBuilder, PostgresAdapter, sql, type RawBuilder } from 'kysely';
import type { Database, Db } from '../../db/index.ts';
import { accessiblePatientIds, patientAccessCondition } from '../patients/access.ts';
import { keepCursor, takeCursor } from './cursors.ts';
import { countInPeriod, figureOfPatient, pageOfParts, rowIdPart, sortedPart, splitOrderRowIds } from './split-orders.ts';
import type { Period } from './rules.ts';

/*
 * The detail table ordered and paged by the database. The order is the one the rows show, field by field as the
 * API promises it: names and codes in German phone-book order (their stored keys), a value left out (null) before
 * any other, a last name followed by the first name and the other way round, the row id deciding the rest, always
 * ascending. Only the page's patients are then read, with their calls and day-evaluations in the period.
 */

export type Direction = 'asc' | 'desc';
/**
 * Whose names the rows carry: 'all' (an administrator), 'none' (a caller who may open no patient: every field that
 * opens one is null, so the row id alone orders by it), or the patients a coach may open.
 */
export type Viewer = 'all' | 'none' | { coachId: string };

interface OrderKey {
  value: RawBuilder<unknown>;
  nullable: boolean;
}

/**
 * The keys a field sorts by, before the row id. A field that opens a patient is null on the rows the caller may not
 * open, and sorts as such: for a caller who may open none, it orders nothing; a caller who may open some has their
 * own pages (pageRowIdsOfOwn) and comes here as 'all' for their own patients.
 */
function fieldKeys(field: string, viewer: 'all' | 'none', postgres: boolean): OrderKey[] {
  // Byte order, as the keys compare and as SQLite compares text, whatever collation a PostgreSQL database has.
  const text = (column: string): RawBuilder<unknown> => (postgres ? sql`${sql.ref(column)} collate "C"` : sql`${sql.ref(column)}`);
  const shown = (value: RawBuilder<unknown>): OrderKey[] => (viewer === 'all' ? [{ value, nullable: false }] : []);
  const first = shown(sql`patients."firstNameKey"`);
  const last = shown(sql`patients."lastNameKey"`);
  const keys: Record<string, OrderKey[]> = {
    rowId: [],
    patientId: shown(text('patients.id')),
    patientCode: shown(sql`lower(${text('patients.patientCode')})`),
    firstName: [...first, ...last],
    lastName: [...last, ...first],
    primaryCoachId: [{ value: text('patients.primaryCoachId'), nullable: true }],
    aftercareStart: [{ value: text('patients.aftercareStart'), nullable: false }],
    aftercareEnd: [{ value: text('patients.aftercareEnd'), nullable: false }],
    lastDataAt: [{ value: text('patients.lastDataAt'), nullable: true }],
  };
  return keys[field];
}

/**
 * ORDER BY terms: each key in the asked direction (a value that can be missing: missing first ascending, last
 * descending, as SQLite orders anyway and the indexes of migration 124 hold them), then the row id ascending.
 */
function orderTerms(keys: OrderKey[], direction: Direction): RawBuilder<unknown>[] {
  const dir = sql.raw(direction);
  const nulls = sql.raw(direction === 'asc' ? 'nulls first' : 'nulls last');
  const terms = keys.map((key) => (key.nullable ? sql`${key.value} ${dir} ${nulls}` : sql`${key.value} ${dir}`));
  return [...terms, sql`patients."statisticsRowId" asc`];
}

export interface DetailPatient {
  id: string;
  patientCode: string;
  firstName: string;
  lastName: string;
  primaryCoachId: string | null;
  aftercareStart: string;
  aftercareEnd: string;
  lastDataAt: string | null;
  statisticsRowId: string;
  coachFirst: string | null;
  coachLast: string | null;
  visible: number;
  /** Within the period. */
  phoneCoachings: number;
  phoneCoachingMinutes: number;
  dayEvaluations: number;
}

type Order = { field: string; direction: Direction };

/**
 * The plain columns an order sorts by when they can also say where a page starts (all ascending, from an index):
 * names for a caller who sees all, the row id alone where every sorted value is hidden. Null: OFFSET only.
 */
function keysetColumns(order: Order, viewer: Viewer): string[] | null {
  const hidden = HIDDEN.includes(order.field);
  if (order.field === 'rowId' || (viewer === 'none' && hidden)) return ['statisticsRowId'];
  if (viewer !== 'all' || order.direction !== 'asc') return null;
  if (order.field === 'lastName') return ['lastNameKey', 'firstNameKey', 'statisticsRowId'];
  if (order.field === 'firstName') return ['firstNameKey', 'lastNameKey', 'statisticsRowId'];
  return null;
}

/**
 * The row ids of one page, in order. Reads only the sort keys (from an index that holds the period columns too),
 * and starts after the previous page's last row when a walk left a cursor for this skip.
 */
async function pageRowIds(db: Db, p: Period, viewer: Viewer, order: Order, page: { limit?: number; skip?: number }, total: number): Promise<string[]> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const columns = keysetColumns(order, viewer);
  const walk = (skip: number) => JSON.stringify([p.from, p.to, p.coachId ?? null, order, viewer, total, skip]);
  const skip = page.skip ?? 0;
  const after = columns && page.limit !== undefined && skip > 0 ? takeCursor(db, walk(skip)) : undefined;
  let query = db
    .selectFrom('patients')
    .select(sql<string>`patients."statisticsRowId"`.as('rowId'))
    .where('patients.aftercareStart', '<=', p.to)
    .where('patients.aftercareEnd', '>=', p.from);
  // The indexes of an order by a date hold it in byte order (migration 124): the same bound in that order lets
  // PostgreSQL start the walk at the period instead of filtering every patient before it (aftercareEnd ascending
  // at 100,000 patients: 31,000 index entries read for a page of 25).
  if (postgres) query = query.where(sql<boolean>`patients."aftercareEnd" collate "C" >= ${p.from} and patients."aftercareStart" collate "C" <= ${p.to}`);
  if (columns) query = query.select(columns.map((column, i) => sql`${sql.ref(`patients.${column}`)}`.as(`k${i}`)));
  if (p.coachId) query = query.where('patients.primaryCoachId', '=', p.coachId);
  if (after && columns) {
    const row = sql.join(columns.map((column) => sql.ref(`patients.${column}`)));
    query = query.where(sql<boolean>`(${row}) > (${sql.join(after)})`);
  }
  // A caller who may open some patients comes here for the fields that open none (the same for every caller).
  const keys = fieldKeys(order.field, viewer === 'none' ? 'none' : 'all', postgres);
  for (const term of orderTerms(keys, order.direction)) query = query.orderBy(term);
  // OFFSET without LIMIT: SQLite needs a LIMIT, -1 means none there; PostgreSQL takes ALL.
  if (page.limit !== undefined || skip) query = query.limit(page.limit ?? (postgres ? (null as never) : -1));
  if (skip && !after) query = query.offset(skip);
  const rows = (await query.execute()) as Record<string, unknown>[];
  const last = rows.at(-1);
  if (columns && last && page.limit !== undefined && rows.length === page.limit) {
    const values = columns.map((_, i) => last[`k${i}`]);
    if (values.every((value) => value !== null && value !== undefined)) keepCursor(db, walk(skip + rows.length), values);
  }
  return rows.map((row) => String(row.rowId));
}

const HIDDEN = ['patientId', 'patientCode', 'firstName', 'lastName'];

/**
 * An order by a field that opens a patient, for a caller who may open some: the rows without it (the other
 * patients, most of the period) come first in row id order, walked, then the caller's own patients sorted by it;
 * descending the other way round. Sorting every row by the field or nothing read each patient's access (a health
 * manager with 250 patients of 100,000: 62 ms of CPU for a page by name on SQLite, 46 on PostgreSQL).
 */
async function pageRowIdsOfOwn(db: Db, p: Period, coachId: string, order: Order, page: { limit?: number; skip?: number }, total: number): Promise<string[]> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const opens = sql<boolean>`${patientAccessCondition(expressionBuilder<Database, 'patients'>(), coachId, 'patients.id')}`;
  const own = () => countInPeriod(db, p, opens);
  const others = rowIdPart(db, p, sql<boolean>`not (${opens})`, async () => total - (await own()));
  const terms = fieldKeys(order.field, 'all', postgres).map((key) => sql`${key.value} ${sql.raw(order.direction)}`);
  const mine = sortedPart(db, p, opens, terms, own);
  return pageOfParts(order.direction === 'asc' ? [others, mine] : [mine, others], page.skip ?? 0, page.limit);
}

/** One page of the patients whose aftercare overlaps the period, in the asked order; total: all such patients. */
export async function detailPatients(
  db: Db,
  p: Period,
  viewer: Viewer,
  order: Order,
  page: { limit?: number; skip?: number },
  total: number,
): Promise<DetailPatient[]> {
  const ownFirst = typeof viewer === 'object' && HIDDEN.includes(order.field);
  const ids = ownFirst
    ? await pageRowIdsOfOwn(db, p, viewer.coachId, order, page, total)
    : ((await splitOrderRowIds(db, p, order, page, total)) ?? (await pageRowIds(db, p, viewer, order, page, total)));
  if (ids.length === 0) return [];
  const eb = expressionBuilder<Database, 'patients'>();
  const visible =
    typeof viewer === 'string'
      ? sql<number>`${sql.lit(viewer === 'all' ? 1 : 0)}`
      : sql<number>`case when ${patientAccessCondition(eb, viewer.coachId, 'patients.id')} then 1 else 0 end`;
  const rows = await db
    .selectFrom('patients')
    .leftJoin('coaches', 'coaches.id', 'patients.primaryCoachId')
    .select([
      'patients.id',
      'patients.patientCode',
      'patients.firstName',
      'patients.lastName',
      'patients.primaryCoachId',
      'patients.aftercareStart',
      'patients.aftercareEnd',
      'patients.lastDataAt',
      'patients.statisticsRowId',
      'coaches.firstName as coachFirst',
      'coaches.lastName as coachLast',
      visible.as('visible'),
      figureOfPatient(p, 'phoneCoachings').as('phoneCoachings'),
      figureOfPatient(p, 'phoneCoachingMinutes').as('phoneCoachingMinutes'),
      figureOfPatient(p, 'dayEvaluations').as('dayEvaluations'),
    ])
    .where('patients.statisticsRowId', 'in', ids)
    .execute();
  const byRowId = new Map(rows.map((row) => [row.statisticsRowId, row as DetailPatient]));
  return ids.flatMap((id) => byRowId.get(id) ?? []);
}

/** Whose names a caller sees in the detail table. */
export async function viewerOf(db: Db, coach: { id: string }, admin: boolean): Promise<Viewer> {
  if (admin) return 'all';
  const any = await accessiblePatientIds(db, coach.id).limit(1).execute();
  return any.length > 0 ? { coachId: coach.id } : 'none';
}

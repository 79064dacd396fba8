import { orderColumn } from '../lib/sort-key.ts';
import type { Db } from '../db/index.ts';
import type { AnyQuery, Row } from '../resource/definition.ts';
import { rowsOf } from './rows-of.ts';

/** An order of a list: its fields and their directions. */
type Order = readonly { field: string; direction: 'asc' | 'desc' }[];

/**
 * A page of one coach's patients by name, unfiltered (the patient list's first screen, the dashboard's caseload):
 * the first `skip + limit` entries of the two indexes that hold the caseload in the name order, the primary coach's
 * (patients_coach_name_order) and the care team's (patient_coaches_coach_name_order, migration 134), merged; then
 * the page's rows. Every patient of the caseload read by primary key and sorted cost 1.9 ms of SQLite and 2.9 of
 * PostgreSQL at 100,000 patients (543 in the caseload); this reads index entries and the page's rows (0.3 ms on
 * either). Its total: the end of a page that is not full, else both indexes' entries counted up to `countLimit`
 * (index entries only). Undefined for another order (also a descending one with the id ascending after it, which
 * no index walks), for the caller's general path.
 */
export async function caseloadNamePage(
  db: Db,
  coachId: string,
  order: Order,
  page: { skip: number; limit: number },
  countLimit: number,
): Promise<{ rows: Row[]; total: number | undefined } | undefined> {
  const direction = nameDirection(order);
  if (!direction) return undefined;
  const keys = ['lastNameKey', 'firstNameKey'] as const;
  const reach = page.skip + page.limit;
  const primary = db
    .selectFrom('patients')
    .select(['patients.id', ...keys.map((k) => `patients.${k}` as const)])
    .where('patients.primaryCoachId', '=', coachId)
    .orderBy('patients.lastNameKey', direction)
    .orderBy('patients.firstNameKey', direction)
    .orderBy('patients.id', direction)
    .limit(reach);
  const team = db
    .selectFrom('patient_coaches')
    .select(['patient_coaches.patientId as id', ...keys.map((k) => `patient_coaches.${k}` as const)])
    .where('patient_coaches.coachId', '=', coachId)
    .orderBy('patient_coaches.lastNameKey', direction)
    .orderBy('patient_coaches.firstNameKey', direction)
    .orderBy('patient_coaches.patientId', direction)
    .limit(reach);
  // Each limited list as a table of its own: SQLite allows no ORDER BY or LIMIT on a part of a UNION.
  const merged = db
    .selectFrom(primary.as('primary'))
    .selectAll()
    .union(db.selectFrom(team.as('team')).selectAll() as never)
    .orderBy('lastNameKey', direction)
    .orderBy('firstNameKey', direction)
    .orderBy('id', direction)
    .limit(page.limit)
    .offset(page.skip);
  const rows = (await db
    .selectFrom(merged.as('page'))
    .innerJoin('patients', 'patients.id', 'page.id')
    .selectAll('patients')
    .orderBy('patients.lastNameKey', direction)
    .orderBy('patients.firstNameKey', direction)
    .orderBy('patients.id', direction)
    .execute()) as unknown as Row[];
  if (rows.length > 0 && rows.length < page.limit) return { rows, total: page.skip + rows.length };
  if (rows.length === 0 && page.skip === 0) return { rows, total: 0 };
  return { rows, total: await caseloadCount(db, coachId, countLimit) };
}

/** The direction of a name order (last name, first name, then optionally the id), when one index walk gives it. */
function nameDirection(order: Order): 'asc' | 'desc' | undefined {
  const fields = order.map((o) => orderColumn('patients', o.field));
  const named = fields[0] === 'lastNameKey' && fields[1] === 'firstNameKey' && (fields.length === 2 || (fields.length === 3 && fields[2] === 'id'));
  if (!named) return undefined;
  const direction = order[0].direction;
  if (order.some((o) => o.direction !== direction)) return undefined;
  // Without the id in the order, the list breaks ties by the id ascending.
  return fields.length === 2 && direction === 'desc' ? undefined : direction;
}

/** The caseload's patients, from both indexes' entries: the count when at most `cap`, else undefined. */
async function caseloadCount(db: Db, coachId: string, cap: number): Promise<number | undefined> {
  const ids = db
    .selectFrom('patients')
    .select('patients.id')
    .where('patients.primaryCoachId', '=', coachId)
    .union(db.selectFrom('patient_coaches').select('patient_coaches.patientId as id').where('patient_coaches.coachId', '=', coachId))
    .limit(cap + 1);
  const count = await rowsOf(db, ids as unknown as AnyQuery);
  return count > cap ? undefined : count;
}

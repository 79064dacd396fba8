import type { Db } from '../../db/index.ts';
import type { SyncRecordTable } from '../../db/family-types.ts';
import { insertChunked } from '../../db/insert-chunked.ts';
import type { ParsedFilter } from '../../http/filter.ts';
import { whereExpression } from '../../http/filter.ts';
import type { SyncCollection } from '../../../../contract/schemas/sync-db.ts';
import { DEFAULT_PAGE_SIZE } from './rules.ts';

/* The records the patient's app and the coaches synchronise (sync_records), and the sync state derived from them. */

const COLUMNS = ['id', 'patientId', 'date', 'updatedAt', 'data'] as const;

/** One page of a patient's collection (default order: date, then id) and the number of all matches. */
export async function listRecords(db: Db, patientId: string, collection: SyncCollection, filter: ParsedFilter) {
  let query = db.selectFrom('sync_records').where('patientId', '=', patientId).where('collection', '=', collection);
  if (filter.where) {
    const where = filter.where;
    query = query.where((eb) => whereExpression(eb, where));
  }
  const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  let rows = query.select(COLUMNS);
  for (const { field, direction } of filter.order) rows = rows.orderBy(field as 'id', direction);
  if (filter.order.length === 0) rows = rows.orderBy('date').orderBy('id');
  const list = await rows
    .limit(filter.limit ?? DEFAULT_PAGE_SIZE)
    .offset(filter.skip)
    .execute();
  return { rows: list, total: Number(total.n) };
}

export async function findRecord(db: Db, patientId: string, collection: SyncCollection, id: string) {
  return db
    .selectFrom('sync_records')
    .select(COLUMNS)
    .where('patientId', '=', patientId)
    .where('collection', '=', collection)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Inserts the record, or replaces the one with its id. */
export async function upsertRecord(db: Db, row: SyncRecordTable): Promise<void> {
  const { patientId: _p, collection: _c, id: _i, ...changes } = row;
  await db
    .insertInto('sync_records')
    .values(row)
    .onConflict((oc) => oc.columns(['patientId', 'collection', 'id']).doUpdateSet(changes))
    .execute();
}

/** False when there was no such record. */
export async function deleteRecord(db: Db, patientId: string, collection: SyncCollection, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('sync_records')
    .where('patientId', '=', patientId)
    .where('collection', '=', collection)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** What synced_patients says about one patient whose app has synchronised. */
export interface SyncState {
  patientId: string;
  patientCode: string;
  lastSyncAt: string;
  recordCount: number;
  lastDayEvaluationDate: string | null;
}

async function storeSyncState(db: Db, state: SyncState): Promise<void> {
  const { patientId, ...values } = state;
  await db
    .insertInto('synced_patients')
    .values({ id: patientId, patientId, ...values })
    .onConflict((oc) => oc.column('patientId').doUpdateSet(values))
    .execute();
}

/**
 * Keeps synced_patients and patients.lastDataAt in step after a change to a patient's records.
 * appDataAt: when the change is new data from the app (moves lastDataAt), else null.
 */
export async function refreshSyncState(db: Db, patientId: string, appDataAt: string | null): Promise<void> {
  const counts = await db
    .selectFrom('sync_records')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('patientId', '=', patientId)
    .executeTakeFirstOrThrow();
  const lastEvaluation = await db
    .selectFrom('sync_records')
    .select((eb) => eb.fn.max('date').as('d'))
    .where('patientId', '=', patientId)
    .where('collection', '=', 'day-evaluation')
    .executeTakeFirst();
  const patient = await db.selectFrom('patients').select(['patientCode', 'lastDataAt']).where('id', '=', patientId).executeTakeFirstOrThrow();
  const lastDataAt = appDataAt ?? (patient.lastDataAt as string | null);
  if (appDataAt) await db.updateTable('patients').set({ lastDataAt: appDataAt }).where('id', '=', patientId).execute();
  if (!lastDataAt) {
    // Only coach-written plans so far: the app has never synchronised.
    await db.deleteFrom('synced_patients').where('patientId', '=', patientId).execute();
    return;
  }
  await storeSyncState(db, {
    patientId,
    patientCode: patient.patientCode as string,
    lastSyncAt: lastDataAt,
    recordCount: Number(counts.n),
    lastDayEvaluationDate: (lastEvaluation?.d as string | null | undefined) ?? null,
  });
}

/**
 * Demo data: records made elsewhere, stored in bulk with the sync state they leave (and each patient's lastDataAt,
 * unless the caller inserted the patients with it already: one update per patient is what makes a large seed slow).
 */
export async function insertRecords(db: Db, records: SyncRecordTable[], states: SyncState[], options: { patientsHaveLastData?: boolean } = {}): Promise<void> {
  await insertChunked(db, 'sync_records', records);
  await insertChunked(
    db,
    'synced_patients',
    states.map((s) => ({ id: s.patientId, ...s })),
  );
  if (options.patientsHaveLastData) return;
  for (const state of states) await db.updateTable('patients').set({ lastDataAt: state.lastSyncAt }).where('id', '=', state.patientId).execute();
}

import { Router, type Request } from 'express';
import * as v from 'valibot';
import type { Upstream } from '../../context.ts';
import { sendAnswer } from '../../http/answer.ts';
import type { Db } from '../../db/index.ts';
import type { SyncRecordTable } from '../../db/family-types.ts';
import { assertPatientAccess, currentCoach, requireAuth } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import { parseFilter, whereExpression } from '../../http/filter.ts';
import { validate } from '../../http/validate.ts';
import { dayOf } from '../../lib/days.ts';
import {
  SyncCollectionSchema,
  syncRecordSchema,
  syncUpsertSchema,
  type SyncCollection,
  type SyncData,
  type SyncRecord,
} from '../../../../contract/schemas/sync-db.ts';

/**
 * Collections the patient's app writes. Only these move the patient's lastDataAt ("last synchronised
 * data" on the dashboard); plans a coach writes (events, templates, survey assignments, timeframes)
 * say nothing about whether the patient is still using the app.
 */
export const PATIENT_COLLECTIONS: ReadonlySet<SyncCollection> = new Set([
  'day-evaluation',
  'day-stats',
  'form',
  'internal',
  'life-section',
  'settings',
  'survey-result',
  'timeframe-evaluation',
]);

export const FILTER_FIELDS = { id: 'string', date: 'date', updatedAt: 'date' } as const;
const DEFAULT_LIMIT = 1000;

/** The columns copied out of `data` so filters and statistics stay plain SQL. */
export function derivedColumns(collection: SyncCollection, data: Record<string, unknown>) {
  const day = (value: unknown) => (typeof value === 'string' ? dayOf(value) : null);
  let date: string | null = null;
  if (collection === 'day-evaluation' || collection === 'day-stats' || collection === 'timeframe-evaluation') date = data.date as string;
  else if (collection === 'event') date = day(data.start);
  else if (collection === 'timeframe') date = data.start as string;
  else if (collection === 'survey-result') date = day(data.completedAt);
  else if (collection === 'survey') date = day(data.assignedAt);
  const isEvent = collection === 'event';
  return {
    date,
    type: isEvent || collection === 'event-template' ? (data.type as string) : null,
    done: isEvent ? (data.done ? (1 as const) : (0 as const)) : null,
    minutes: isEvent ? (data.durationMinutes as number) : null,
  };
}

export function toSyncRecord<C extends SyncCollection>(row: Pick<SyncRecordTable, 'id' | 'patientId' | 'date' | 'updatedAt' | 'data'>): SyncRecord<C> {
  return { id: row.id, patientId: row.patientId, date: row.date, updatedAt: row.updatedAt, data: JSON.parse(row.data) as SyncData<C> };
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
  const state = {
    patientCode: patient.patientCode as string,
    recordCount: Number(counts.n),
    lastDayEvaluationDate: (lastEvaluation?.d as string | null | undefined) ?? null,
  };
  if (!lastDataAt) {
    // Only coach-written plans so far: the app has never synchronised.
    await db.deleteFrom('synced_patients').where('patientId', '=', patientId).execute();
    return;
  }
  await db
    .insertInto('synced_patients')
    .values({ id: patientId, patientId, lastSyncAt: lastDataAt, ...state })
    .onConflict((oc) => oc.column('patientId').doUpdateSet({ lastSyncAt: lastDataAt, ...state }))
    .execute();
}

/**
 * /patients/{patientId}/sync-db/{collection}: GET list (filter on id, date, updatedAt; default order
 * date, then id), PUT upsert ({ id, data }), GET {id}, DELETE {id}. Admins and linked coaches only.
 */
export function syncDbRoutes(ctx: Upstream): Router {
  const router = Router();
  const auth = requireAuth(ctx);
  const target = async (req: Request) => {
    const patientId = String(req.params.patientId);
    const parsed = v.safeParse(SyncCollectionSchema, req.params.collection);
    if (!parsed.success) throw notFound('Unknown sync collection', 'UNKNOWN_COLLECTION');
    await assertPatientAccess(ctx.db, currentCoach(req), patientId);
    return { patientId, collection: parsed.output };
  };
  const base = '/patients/:patientId/sync-db/:collection';

  router.get(base, auth, async (req, res) => {
    const { patientId, collection } = await target(req);
    const filter = parseFilter(req.query as Record<string, unknown>, FILTER_FIELDS);
    let query = ctx.db.selectFrom('sync_records').where('patientId', '=', patientId).where('collection', '=', collection);
    if (filter.where) {
      const where = filter.where;
      query = query.where((eb) => whereExpression(eb, where));
    }
    const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    let rows = query.select(['id', 'patientId', 'date', 'updatedAt', 'data']);
    for (const { field, direction } of filter.order) rows = rows.orderBy(field as 'id', direction);
    if (filter.order.length === 0) rows = rows.orderBy('date').orderBy('id');
    const list = await rows
      .limit(filter.limit ?? DEFAULT_LIMIT)
      .offset(filter.skip)
      .execute();
    res.set('X-Total-Count', String(Number(total.n)));
    sendAnswer(res, v.array(syncRecordSchema(collection)), list.map(toSyncRecord));
  });

  router.put(base, auth, async (req, res) => {
    const { patientId, collection } = await target(req);
    const body = validate(syncUpsertSchema(collection), req.body);
    const data = body.data as Record<string, unknown>;
    const updatedAt = ctx.clock.now().toISOString();
    const row = { patientId, collection, id: body.id, ...derivedColumns(collection, data), data: JSON.stringify(data), updatedAt };
    const { patientId: _p, collection: _c, id: _i, ...changes } = row;
    await ctx.db
      .insertInto('sync_records')
      .values(row)
      .onConflict((oc) => oc.columns(['patientId', 'collection', 'id']).doUpdateSet(changes))
      .execute();
    await refreshSyncState(ctx.db, patientId, PATIENT_COLLECTIONS.has(collection) ? updatedAt : null);
    sendAnswer(res, syncRecordSchema(collection), toSyncRecord(row));
  });

  router.get(`${base}/:id`, auth, async (req, res) => {
    const { patientId, collection } = await target(req);
    const row = await ctx.db
      .selectFrom('sync_records')
      .select(['id', 'patientId', 'date', 'updatedAt', 'data'])
      .where('patientId', '=', patientId)
      .where('collection', '=', collection)
      .where('id', '=', String(req.params.id))
      .executeTakeFirst();
    if (!row) throw notFound('Unknown record', 'RECORD_NOT_FOUND');
    sendAnswer(res, syncRecordSchema(collection), toSyncRecord(row));
  });

  router.delete(`${base}/:id`, auth, async (req, res) => {
    const { patientId, collection } = await target(req);
    const result = await ctx.db
      .deleteFrom('sync_records')
      .where('patientId', '=', patientId)
      .where('collection', '=', collection)
      .where('id', '=', String(req.params.id))
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound('Unknown record', 'RECORD_NOT_FOUND');
    // A deletion is not new data from the app: the counts change, lastDataAt stays.
    await refreshSyncState(ctx.db, patientId, null);
    res.status(204).end();
  });

  return router;
}

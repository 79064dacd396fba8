import { Router, type Request } from 'express';
import * as v from 'valibot';
import type { Upstream } from '../../context.ts';
import { sendAnswer } from '../../http/answer.ts';
import { currentCoach, requireAuth } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import { parseFilter } from '../../http/filter.ts';
import { param } from '../../http/params.ts';
import { validate } from '../../http/validate.ts';
import { assertPatientAccess } from '../patients/access.ts';
import { deleteRecord, findRecord, listRecords, refreshSyncState, upsertRecord } from './repository.ts';
import { FILTER_FIELDS, PATIENT_COLLECTIONS, toStoredRecord, toSyncRecord } from './rules.ts';
import { SyncCollectionSchema, syncRecordSchema, syncUpsertSchema } from '../../../../contract/schemas/sync-db.ts';

/**
 * /patients/{patientId}/sync-db/{collection}: GET list (filter on id, date, updatedAt; default order
 * date, then id), PUT upsert ({ id, data }), GET {id}, DELETE {id}. Admins and linked coaches only.
 */
export function syncDataRoutes(ctx: Upstream): Router {
  const router = Router();
  const auth = requireAuth(ctx);
  const target = async (req: Request) => {
    const patientId = param(req, 'patientId');
    const parsed = v.safeParse(SyncCollectionSchema, req.params.collection);
    if (!parsed.success) throw notFound('Unknown sync collection', 'UNKNOWN_COLLECTION');
    await assertPatientAccess(ctx.db, currentCoach(req), patientId);
    return { patientId, collection: parsed.output };
  };
  const unknownRecord = () => notFound('Unknown record', 'RECORD_NOT_FOUND');
  const base = '/patients/:patientId/sync-db/:collection';

  router.get(base, auth, async (req, res) => {
    const { patientId, collection } = await target(req);
    const filter = parseFilter(req.query as Record<string, unknown>, FILTER_FIELDS);
    const { rows, total } = await listRecords(ctx.db, patientId, collection, filter);
    res.set('X-Total-Count', String(total));
    sendAnswer(res, v.array(syncRecordSchema(collection)), rows.map(toSyncRecord));
  });

  router.put(base, auth, async (req, res) => {
    const { patientId, collection } = await target(req);
    const body = validate(syncUpsertSchema(collection), req.body);
    const updatedAt = ctx.clock.now().toISOString();
    const row = toStoredRecord(patientId, collection, body.id, body.data as Record<string, unknown>, updatedAt);
    await upsertRecord(ctx.db, row);
    await refreshSyncState(ctx.db, patientId, PATIENT_COLLECTIONS.has(collection) ? updatedAt : null);
    sendAnswer(res, syncRecordSchema(collection), toSyncRecord(row));
  });

  router.get(`${base}/:id`, auth, async (req, res) => {
    const { patientId, collection } = await target(req);
    const row = await findRecord(ctx.db, patientId, collection, param(req, 'id'));
    if (!row) throw unknownRecord();
    sendAnswer(res, syncRecordSchema(collection), toSyncRecord(row));
  });

  router.delete(`${base}/:id`, auth, async (req, res) => {
    const { patientId, collection } = await target(req);
    if (!(await deleteRecord(ctx.db, patientId, collection, param(req, 'id')))) throw unknownRecord();
    // A deletion is not new data from the app: the counts change, lastDataAt stays.
    await refreshSyncState(ctx.db, patientId, null);
    res.status(204).end();
  });

  return router;
}

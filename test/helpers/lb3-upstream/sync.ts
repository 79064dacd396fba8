import { type Lb3, filterArg, httpError, pathArg, root } from './state.ts';

/*
 * The app's synchronised collections under /patients/{id}/sync-db/{collection}. This API keeps a record flat: the
 * data fields beside id, patientId, date and updatedAt, not under `data` (the gateway's mapping says so). Stored as
 * SyncEntry rows whose recordId is the record's id; a list's filter may name id, so `id` means recordId there.
 */

const COLLECTIONS = new Set([
  'day-evaluation',
  'day-stats',
  'event',
  'event-template',
  'form',
  'internal',
  'life-section',
  'settings',
  'survey',
  'survey-result',
  'timeframe',
  'timeframe-evaluation',
]);

/** `where`/`order` keys of the client's filter in the stored names: id is recordId. */
function renameId(where: any): any {
  if (Array.isArray(where)) return where.map(renameId);
  if (!where || typeof where !== 'object') return where;
  return Object.fromEntries(
    Object.entries(where).map(([key, value]) => [key === 'id' ? 'recordId' : key, key === 'and' || key === 'or' ? renameId(value) : value]),
  );
}
const renameOrder = (order: unknown) =>
  order === undefined ? undefined : ([] as string[]).concat(order as string).map((part) => part.replace(/^id(\s|$)/, 'recordId$1'));

/** A stored row as the API shows it. */
function shown(entry: any) {
  const { id: _entryId, recordId, collection: _collection, ...rest } = entry.toJSON();
  return { id: recordId, ...rest };
}

export function defineSync(lb: Lb3): void {
  const { Patient, SyncEntry } = lb.models;
  const scope = async (id: number, collection: string) => {
    if (!COLLECTIONS.has(collection)) throw httpError(404, `Unknown collection ${collection}`);
    if (!(await Patient.findById(id))) throw httpError(404, `Unknown "Patient" id "${id}".`, 'MODEL_NOT_FOUND');
    return { patientId: id, collection };
  };
  const one = async (id: number, collection: string, recordId: string) => SyncEntry.findOne({ where: { ...(await scope(id, collection)), recordId } });
  const path = '/:id/sync-db/:collection';
  const args = [pathArg('id'), pathArg('collection', 'string')];

  Patient.syncList = async (id: number, collection: string, filter: any = {}) => {
    const where = await scope(id, collection);
    const order = renameOrder(filter.order) ?? ['date ASC', 'recordId ASC'];
    const entries = await SyncEntry.find({ ...filter, order, where: filter.where ? { and: [where, renameId(filter.where)] } : where });
    return entries.map(shown);
  };
  Patient.remoteMethod('syncList', { http: { verb: 'get', path }, accepts: [...args, filterArg], returns: root('array'), accessType: 'READ' });

  // Creates or replaces the record with the body's id; the record's day is its own date or the day its start is on.
  Patient.syncPut = async (id: number, collection: string, data: any) => {
    const { id: recordId, ...fields } = data ?? {};
    const existing = await one(id, collection, String(recordId));
    if (existing) await existing.destroy();
    const date = typeof fields.date === 'string' ? fields.date : typeof fields.start === 'string' ? fields.start.slice(0, 10) : null;
    const entry = await SyncEntry.create({ ...fields, ...(await scope(id, collection)), recordId: String(recordId), date });
    if (collection !== 'event' && collection !== 'event-template' && collection !== 'timeframe') await Patient.updateAll({ id }, { lastDataAt: new Date() });
    return shown(entry);
  };
  Patient.remoteMethod('syncPut', {
    http: { verb: 'put', path },
    accepts: [...args, { arg: 'data', type: 'object', http: { source: 'body' } }],
    returns: root(),
  });

  Patient.syncGet = async (id: number, collection: string, recordId: string) => {
    const entry = await one(id, collection, recordId);
    if (!entry) throw httpError(404, `Unknown "SyncEntry" id "${recordId}".`, 'MODEL_NOT_FOUND');
    return shown(entry);
  };
  Patient.remoteMethod('syncGet', {
    http: { verb: 'get', path: `${path}/:recordId` },
    accepts: [...args, pathArg('recordId', 'string')],
    returns: root(),
    accessType: 'READ',
  });

  Patient.syncDelete = async (id: number, collection: string, recordId: string) => {
    const entry = await one(id, collection, recordId);
    if (!entry) throw httpError(404, `Unknown "SyncEntry" id "${recordId}".`, 'MODEL_NOT_FOUND');
    await entry.destroy();
  };
  Patient.remoteMethod('syncDelete', { http: { verb: 'delete', path: `${path}/:recordId` }, accepts: [...args, pathArg('recordId', 'string')] });
}

import * as v from 'valibot';
import { request } from '../data/http.ts';
import type { ListFilter } from '../../contract/schemas/common.ts';
import { syncRecordSchema, type SyncCollection, type SyncRecord, type SyncUpsert } from '../../contract/schemas/sync-db.ts';

const base = (patientId: string, collection: SyncCollection) => `/patients/${encodeURIComponent(patientId)}/sync-db/${collection}`;

/** Records of one collection; `where`/`order` may use id, date and updatedAt. */
export async function listSyncRecords<C extends SyncCollection>(
  patientId: string,
  collection: C,
  filter?: ListFilter,
  signal?: AbortSignal,
): Promise<{ data: SyncRecord<C>[]; total: number | null }> {
  const result = await request('GET', base(patientId, collection), { query: { filter }, schema: v.array(syncRecordSchema(collection)), signal });
  return result as { data: SyncRecord<C>[]; total: number | null };
}

/** Creates or replaces the record with body.id. */
export async function upsertSyncRecord<C extends SyncCollection>(patientId: string, collection: C, body: SyncUpsert<C>): Promise<SyncRecord<C>> {
  const { data } = await request('PUT', base(patientId, collection), { body, schema: syncRecordSchema(collection) });
  return data as SyncRecord<C>;
}

export async function getSyncRecord<C extends SyncCollection>(
  patientId: string,
  collection: C,
  recordId: string,
  signal?: AbortSignal,
): Promise<SyncRecord<C>> {
  const { data } = await request('GET', `${base(patientId, collection)}/${encodeURIComponent(recordId)}`, { schema: syncRecordSchema(collection), signal });
  return data as SyncRecord<C>;
}

export const deleteSyncRecord = (patientId: string, collection: SyncCollection, recordId: string) =>
  request('DELETE', `${base(patientId, collection)}/${encodeURIComponent(recordId)}`);

import type { Db } from '../../db/index.ts';
import { insertChunked } from '../../db/insert-chunked.ts';

export async function deviceExists(db: Db, id: string): Promise<boolean> {
  return (await db.selectFrom('devices').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

export async function deviceIds(db: Db): Promise<string[]> {
  return (await db.selectFrom('devices').select('id').orderBy('id').execute()).map((d) => d.id);
}

/** Reference data made outside the API (the demo instance), stored as it is. */
export interface ReferenceRows {
  diagnoses: object[];
  costRates: object[];
  devices: object[];
  surveys: object[];
  replicationEndpoints: object[];
}

export async function insertReferenceData(db: Db, rows: ReferenceRows): Promise<void> {
  await insertChunked(db, 'diagnoses', rows.diagnoses);
  await insertChunked(db, 'cost_rates', rows.costRates);
  await insertChunked(db, 'devices', rows.devices);
  await insertChunked(db, 'surveys', rows.surveys);
  await insertChunked(db, 'replication_endpoints', rows.replicationEndpoints);
}

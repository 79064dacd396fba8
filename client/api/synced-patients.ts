import { request } from '../data/http.ts';
import type { ListFilter } from '../../contract/schemas/common.ts';
import { SyncedPatientListSchema, SyncedPatientSchema } from '../../contract/schemas/synced-patients.ts';

export const listSyncedPatients = (filter?: ListFilter, signal?: AbortSignal) =>
  request('GET', '/synced-patients', { query: { filter }, schema: SyncedPatientListSchema, signal });
export const getSyncedPatient = (patientId: string, signal?: AbortSignal) =>
  request('GET', `/synced-patients/${encodeURIComponent(patientId)}`, { schema: SyncedPatientSchema, signal });

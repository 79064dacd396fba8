import { request } from '../data/http.ts';
import type { ListFilter } from '../../contract/schemas/common.ts';
import { AuditEntryListSchema } from '../../contract/schemas/audit-log.ts';

/** Administrators: changes newest first; `{ where: { patientId } }` is one patient's history. */
export const listAuditLog = (filter?: ListFilter, signal?: AbortSignal) =>
  request('GET', '/audit-log', { query: { filter }, schema: AuditEntryListSchema, signal });

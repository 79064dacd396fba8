import { request } from '../data/http.ts';
import type { ListFilter } from '../../contract/schemas/common.ts';
import { PatientTokenListSchema, PatientTokenSchema, type PatientTokenCreate } from '../../contract/schemas/patient-tokens.ts';

const id = encodeURIComponent;

export const createPatientTokenRecord = (body: PatientTokenCreate = {}) => request('POST', '/patientTokens', { body, schema: PatientTokenSchema });
export const listPatientTokens = (filter?: ListFilter, signal?: AbortSignal) =>
  request('GET', '/patientTokens', { query: { filter }, schema: PatientTokenListSchema, signal });
export const getPatientToken = (tokenId: string, signal?: AbortSignal) =>
  request('GET', `/patientTokens/${id(tokenId)}`, { schema: PatientTokenSchema, signal });
export const replacePatientToken = (tokenId: string, body: { coachId: string; patientId: string | null; expiresAt: string }) =>
  request('PUT', `/patientTokens/${id(tokenId)}`, { body, schema: PatientTokenSchema });
export const updatePatientToken = (tokenId: string, body: Partial<{ coachId: string; patientId: string | null; expiresAt: string }>) =>
  request('PATCH', `/patientTokens/${id(tokenId)}`, { body, schema: PatientTokenSchema });
export const deletePatientToken = (tokenId: string) => request('DELETE', `/patientTokens/${id(tokenId)}`);

/** "K7QMR3TXW" -> "K7QM-R3TX-W": codes are shown and read out in blocks of four. */
export function formatCode(code: string): string {
  const plain = code.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
  return plain.match(/.{1,4}/g)?.join('-') ?? '';
}

import type * as v from 'valibot';
import { request } from './http.ts';
import type { ListFilter } from '../../contract/schemas/common.ts';
import {
  DiagnosisListSchema,
  DiagnosisSchema,
  type DiagnosisPatchSchema,
  type DiagnosisUpdateSchema,
  type DiagnosisCreate,
} from '../../contract/schemas/diagnosis.ts';

const id = encodeURIComponent;

export const createDiagnosis = (body: DiagnosisCreate) => request('POST', '/diagnosis', { body, schema: DiagnosisSchema });
export const listDiagnoses = (filter?: ListFilter, signal?: AbortSignal) =>
  request('GET', '/diagnosis', { query: { filter }, schema: DiagnosisListSchema, signal });
export const getDiagnosis = (itemId: string, signal?: AbortSignal) => request('GET', `/diagnosis/${id(itemId)}`, { schema: DiagnosisSchema, signal });
export const replaceDiagnosis = (itemId: string, body: v.InferInput<typeof DiagnosisUpdateSchema>) =>
  request('PUT', `/diagnosis/${id(itemId)}`, { body, schema: DiagnosisSchema });
export const updateDiagnosis = (itemId: string, body: v.InferInput<typeof DiagnosisPatchSchema>) =>
  request('PATCH', `/diagnosis/${id(itemId)}`, { body, schema: DiagnosisSchema });
export const deleteDiagnosis = (itemId: string) => request('DELETE', `/diagnosis/${id(itemId)}`);

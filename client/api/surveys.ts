import type * as v from 'valibot';
import { request } from '../data/http.ts';
import type { ListFilter } from '../../contract/schemas/common.ts';
import { SurveyListSchema, SurveySchema, type SurveyPatchSchema, type SurveyUpdateSchema, type SurveyCreate } from '../../contract/schemas/surveys.ts';

const id = encodeURIComponent;

export const createSurvey = (body: SurveyCreate) => request('POST', '/surveys', { body, schema: SurveySchema });
export const listSurveys = (filter?: ListFilter, signal?: AbortSignal) => request('GET', '/surveys', { query: { filter }, schema: SurveyListSchema, signal });
export const getSurvey = (itemId: string, signal?: AbortSignal) => request('GET', `/surveys/${id(itemId)}`, { schema: SurveySchema, signal });
export const replaceSurvey = (itemId: string, body: v.InferInput<typeof SurveyUpdateSchema>) =>
  request('PUT', `/surveys/${id(itemId)}`, { body, schema: SurveySchema });
export const updateSurvey = (itemId: string, body: v.InferInput<typeof SurveyPatchSchema>) =>
  request('PATCH', `/surveys/${id(itemId)}`, { body, schema: SurveySchema });
export const deleteSurvey = (itemId: string) => request('DELETE', `/surveys/${id(itemId)}`);

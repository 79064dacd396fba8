import type * as v from 'valibot';
import { request } from './http.ts';
import type { ListFilter } from '../../contract/schemas/common.ts';
import {
  CostRateListSchema,
  CostRateSchema,
  type CostRatePatchSchema,
  type CostRateUpdateSchema,
  type CostRateCreate,
} from '../../contract/schemas/cost-rates.ts';

const id = encodeURIComponent;

export const createCostRate = (body: CostRateCreate) => request('POST', '/cost-rates', { body, schema: CostRateSchema });
export const listCostRates = (filter?: ListFilter, signal?: AbortSignal) =>
  request('GET', '/cost-rates', { query: { filter }, schema: CostRateListSchema, signal });
export const getCostRate = (itemId: string, signal?: AbortSignal) => request('GET', `/cost-rates/${id(itemId)}`, { schema: CostRateSchema, signal });
export const replaceCostRate = (itemId: string, body: v.InferInput<typeof CostRateUpdateSchema>) =>
  request('PUT', `/cost-rates/${id(itemId)}`, { body, schema: CostRateSchema });
export const updateCostRate = (itemId: string, body: v.InferInput<typeof CostRatePatchSchema>) =>
  request('PATCH', `/cost-rates/${id(itemId)}`, { body, schema: CostRateSchema });
export const deleteCostRate = (itemId: string) => request('DELETE', `/cost-rates/${id(itemId)}`);

import * as v from 'valibot';
import { IdSchema, intRange, textField } from './common.ts';

/** A billing rate for aftercare (Vergütungssatz), e.g. "IRENA Gruppe" 3500 per session. */
export const CostRateSchema = v.object({
  id: IdSchema,
  name: v.string(),
  /** Amount in euro cents, so sums stay exact. */
  amountCents: v.number(),
  /** What the amount is paid for. */
  unit: v.picklist(['session', 'week', 'month', 'flat']),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type CostRate = v.InferOutput<typeof CostRateSchema>;
export const CostRateListSchema = v.array(CostRateSchema);
export const CostRateCreateSchema = v.object({
  name: textField(200),
  amountCents: intRange(0, 100_000_000),
  unit: v.picklist(['session', 'week', 'month', 'flat']),
});
export type CostRateCreate = v.InferInput<typeof CostRateCreateSchema>;
export const CostRateUpdateSchema = CostRateCreateSchema;
export const CostRatePatchSchema = v.partial(CostRateCreateSchema);

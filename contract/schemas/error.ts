import * as v from 'valibot';

/** The one JSON error body of docs/contract.md#errors, produced by the gateway and every upstream. */
export const ApiErrorBodySchema = v.object({
  error: v.object({
    statusCode: v.number(),
    name: v.string(),
    code: v.string(),
    message: v.string(),
    details: v.optional(v.array(v.object({ path: v.string(), message: v.string() }))),
  }),
});
export type ApiErrorBody = v.InferOutput<typeof ApiErrorBodySchema>;

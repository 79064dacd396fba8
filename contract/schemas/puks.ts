import * as v from 'valibot';
import { IdSchema } from './common.ts';

/**
 * A recovery key (PUK) with which a patient restores app access on a new phone without losing data.
 * Same alphabet and block format as access codes; single use.
 */
export const PukSchema = v.object({
  id: IdSchema,
  patientId: IdSchema,
  code: v.string(),
  createdAt: v.string(),
  /** When the app used it; null while unused. */
  usedAt: v.nullable(v.string()),
});
export type Puk = v.InferOutput<typeof PukSchema>;
export const PukListSchema = v.array(PukSchema);
/** Body of POST /patients/{id}/puks: nothing to choose, the server makes the code. */
export const PukCreateSchema = v.strictObject({});

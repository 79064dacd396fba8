import * as v from 'valibot';
import { IdSchema, TimestampSchema } from './common.ts';
import { PatientSchema } from './patients.ts';

/**
 * An access code (Zugangscode) a patient types into the app to join their coach. Made to be read out on
 * the phone: no look-alike characters, blocks of four, a check character, e.g. "K7QM-X3PA-9R".
 * Valid for 90 days and for one use.
 */
export const PatientTokenSchema = v.object({
  id: IdSchema,
  code: v.string(),
  /** Coach the patient is linked to when redeeming the code. */
  coachId: IdSchema,
  /** Patient the code belongs to; null for a code made before the patient exists (New User). */
  patientId: v.nullable(IdSchema),
  expiresAt: v.string(),
  /** When the app redeemed it; null while unused. */
  usedAt: v.nullable(v.string()),
  createdAt: v.string(),
});
export type PatientToken = v.InferOutput<typeof PatientTokenSchema>;
export const PatientTokenListSchema = v.array(PatientTokenSchema);

/** POST /patientTokens. The server makes the code; coachId defaults to the calling coach. */
export const PatientTokenCreateSchema = v.object({ coachId: v.optional(IdSchema), patientId: v.nullish(IdSchema, null) });
export type PatientTokenCreate = v.InferInput<typeof PatientTokenCreateSchema>;
/** PUT /patientTokens/{id}: reassign or shorten; the code itself never changes. */
export const PatientTokenUpdateSchema = v.object({ coachId: IdSchema, patientId: v.nullable(IdSchema), expiresAt: TimestampSchema });
export const PatientTokenPatchSchema = v.partial(PatientTokenUpdateSchema);

/**
 * A new patient together with the access code to hand over: answer of POST /coaches/createPatientForMedian
 * and GET /coaches/create-trial-access.
 */
export const PatientAccessSchema = v.object({ patient: PatientSchema, token: PatientTokenSchema });
export type PatientAccess = v.InferOutput<typeof PatientAccessSchema>;

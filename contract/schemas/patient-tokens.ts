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
  /** Whom the code is for ("Frau K., Station 3"); an upstream that does not store it sends none: null. */
  label: v.nullish(v.string(), null),
});
export type PatientToken = v.InferOutput<typeof PatientTokenSchema>;
export const PatientTokenListSchema = v.array(PatientTokenSchema);

/** The optional label of a code: blank means none. Short, since it is read in a list row and on the printed sheet. */
export const PATIENT_TOKEN_LABEL_MAX = 80;
export const PatientTokenLabelSchema = v.nullish(
  v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(PATIENT_TOKEN_LABEL_MAX),
    v.transform((text) => text || null),
  ),
  null,
);

/** POST /patientTokens. The server makes the code; coachId defaults to the calling coach. */
export const PatientTokenCreateSchema = v.object({ coachId: v.optional(IdSchema), patientId: v.nullish(IdSchema, null), label: PatientTokenLabelSchema });
export type PatientTokenCreate = v.InferInput<typeof PatientTokenCreateSchema>;
/** PUT /patientTokens/{id}: reassign or shorten; the code itself never changes. */
export const PatientTokenUpdateSchema = v.object({
  coachId: IdSchema,
  patientId: v.nullable(IdSchema),
  expiresAt: TimestampSchema,
  label: PatientTokenLabelSchema,
});
export const PatientTokenPatchSchema = v.object({
  coachId: v.optional(IdSchema),
  patientId: v.optional(v.nullable(IdSchema)),
  expiresAt: v.optional(TimestampSchema),
  label: v.optional(PatientTokenLabelSchema),
});

/**
 * A new patient together with the access code to hand over: answer of POST /coaches/createPatientForMedian
 * and GET /coaches/create-trial-access.
 */
export const PatientAccessSchema = v.object({ patient: PatientSchema, token: PatientTokenSchema });
export type PatientAccess = v.InferOutput<typeof PatientAccessSchema>;

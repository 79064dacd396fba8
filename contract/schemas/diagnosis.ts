import * as v from 'valibot';
import { IdSchema, textField } from './common.ts';

/** An ICD-10-GM diagnosis, e.g. { code: "F33.1", label: "Rezidivierende depressive Störung, ..." }. */
export const DiagnosisSchema = v.object({
  id: IdSchema,
  /** ICD-10 code; unique. */
  code: v.string(),
  label: v.string(),
});
export type Diagnosis = v.InferOutput<typeof DiagnosisSchema>;
export const DiagnosisListSchema = v.array(DiagnosisSchema);
export const DiagnosisCreateSchema = v.object({
  code: v.pipe(v.string(), v.trim(), v.toUpperCase(), v.regex(/^[A-Z]\d{2}(\.\d{1,2})?[-+!*#]?$/, 'Invalid ICD-10 code')),
  label: textField(300),
});
export type DiagnosisCreate = v.InferInput<typeof DiagnosisCreateSchema>;
export const DiagnosisUpdateSchema = DiagnosisCreateSchema;
export const DiagnosisPatchSchema = v.partial(DiagnosisCreateSchema);

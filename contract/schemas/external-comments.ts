import * as v from 'valibot';
import { IdSchema } from './common.ts';

/**
 * A note from outside the coaching team, read only: the clinic's discharge letter summary, a message the
 * patient wrote in the app, or a therapist's remark.
 */
export const ExternalCommentSchema = v.object({
  id: IdSchema,
  patientId: IdSchema,
  source: v.picklist(['clinic', 'patient-app', 'therapist', 'other']),
  /** Name of the writer as delivered, e.g. "Dr. med. A. Krüger (Reha-Klinik)". */
  author: v.string(),
  text: v.string(),
  createdAt: v.string(),
});
export type ExternalComment = v.InferOutput<typeof ExternalCommentSchema>;
export const ExternalCommentListSchema = v.array(ExternalCommentSchema);

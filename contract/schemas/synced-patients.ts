import * as v from 'valibot';
import { IdSchema } from './common.ts';

/** Read only: the sync state of one patient's app, one entry per patient that has ever synchronised. */
export const SyncedPatientSchema = v.object({
  /** Same as patientId: a patient has one sync state. */
  id: IdSchema,
  patientId: IdSchema,
  patientCode: v.string(),
  /** Last time any record arrived. */
  lastSyncAt: v.string(),
  /** Number of stored records over all 12 collections. */
  recordCount: v.number(),
  /** Day of the newest day-evaluation; null when none. */
  lastDayEvaluationDate: v.nullable(v.string()),
});
export type SyncedPatient = v.InferOutput<typeof SyncedPatientSchema>;
export const SyncedPatientListSchema = v.array(SyncedPatientSchema);

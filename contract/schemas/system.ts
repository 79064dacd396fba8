import * as v from 'valibot';
import { IdSchema } from './common.ts';

export const SystemSettingsSchema = v.object({ enable_creating_new_patients: v.boolean(), instance_name: v.string() });
export type SystemSettings = v.InferOutput<typeof SystemSettingsSchema>;

/**
 * GET /system/training-materials: documents for coaches (Hilfe & Unterlagen). The file is downloaded
 * from GET /v2/app-settings/asset/{assetId}, which needs no token so a plain link works.
 */
export const TrainingMaterialSchema = v.object({
  id: IdSchema,
  title: v.string(),
  description: v.string(),
  /** Grouping on the information screen. */
  category: v.picklist(['manual', 'training', 'form', 'patient-information']),
  assetId: IdSchema,
  fileName: v.string(),
  contentType: v.string(),
  size: v.number(),
  updatedAt: v.string(),
});
export type TrainingMaterial = v.InferOutput<typeof TrainingMaterialSchema>;
export const TrainingMaterialListSchema = v.array(TrainingMaterialSchema);

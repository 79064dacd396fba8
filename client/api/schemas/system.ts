import * as v from 'valibot';

export const SystemSettingsSchema = v.object({
  enable_creating_new_patients: v.boolean(),
  instance_name: v.string(),
});
export type SystemSettings = v.InferOutput<typeof SystemSettingsSchema>;

import { request } from '../data/http.ts';
import { SystemSettingsSchema, TrainingMaterialListSchema } from '../../contract/schemas/system.ts';

export const getSystemSettings = () => request('GET', '/system/settings', { schema: SystemSettingsSchema });
/** Documents for coaches; download each with assetUrl(material.assetId) from ./app-settings.ts. */
export const getTrainingMaterials = (signal?: AbortSignal) => request('GET', '/system/training-materials', { schema: TrainingMaterialListSchema, signal });

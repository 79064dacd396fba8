import { request } from './http.ts';
import { SystemSettingsSchema } from './schemas/system.ts';

export const getSystemSettings = () => request('GET', '/system/settings', { schema: SystemSettingsSchema });

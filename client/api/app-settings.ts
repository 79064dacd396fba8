import { request } from '../data/http.ts';
import { AppSettingsSchema, AppVersionSchema } from '../../contract/schemas/app-settings.ts';

export const getAppSettings = (signal?: AbortSignal) => request('GET', '/app-settings', { schema: AppSettingsSchema, signal });
export const getAppVersion = (signal?: AbortSignal) => request('GET', '/app-settings/version', { schema: AppVersionSchema, signal });

/**
 * GET /app-settings/asset/{id} answers the file itself with its content type, so it is used as a URL
 * (link href, img src) rather than fetched as JSON. It needs no token: assets hold no patient data.
 */
export const assetUrl = (assetId: string) => `/v2/app-settings/asset/${encodeURIComponent(assetId)}`;

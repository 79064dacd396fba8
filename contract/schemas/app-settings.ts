import * as v from 'valibot';
import { IdSchema } from './common.ts';

/** A file served by GET /app-settings/asset/{id} with its own content type (logo, app manual, leaflets). */
export const AssetSchema = v.object({
  id: IdSchema,
  /** File name offered when downloading, e.g. "Patientenleitfaden.pdf". */
  fileName: v.string(),
  contentType: v.string(),
  /** Size in bytes. */
  size: v.number(),
});
export type Asset = v.InferOutput<typeof AssetSchema>;

/** GET /app-settings: what the patient app and the portal show about the service. */
export const AppSettingsSchema = v.object({
  /** Name of the patient app as patients know it. */
  appName: v.string(),
  /** Support contact shown in the app and on the printed access code. */
  supportEmail: v.string(),
  supportPhone: v.string(),
  /** Link to the privacy notice (Datenschutzhinweise). */
  privacyUrl: v.string(),
  /** Where patients download the app; printed on the access-code sheet. */
  appDownloadUrl: v.string(),
  /** Asset id of the logo image, null when none. */
  logoAssetId: v.nullable(IdSchema),
  /** Every downloadable asset. */
  assets: v.array(AssetSchema),
});
export type AppSettings = v.InferOutput<typeof AppSettingsSchema>;

/** GET /app-settings/version: the running product version (package.json). */
export const AppVersionSchema = v.object({
  version: v.string(),
  /** Product name from package.json. */
  name: v.string(),
});
export type AppVersion = v.InferOutput<typeof AppVersionSchema>;

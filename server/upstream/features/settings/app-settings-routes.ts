import { createReadStream, readFileSync } from 'node:fs';
import { Router } from 'express';
import type { Upstream } from '../../context.ts';
import { sendAnswer } from '../../http/answer.ts';
import { requireAuth } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import { ASSETS, publicAsset } from '../../assets/index.ts';
import { readSetting } from './repository.ts';
import { AppSettingsSchema, AppVersionSchema, type AppSettings, type AppVersion } from '../../../../contract/schemas/app-settings.ts';

const pkg = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };

/** What an instance shows about its service until an operator changes the `app` setting. */
export const DEFAULT_APP_SETTINGS: Omit<AppSettings, 'assets'> = {
  appName: 'Nachsorge-App',
  supportEmail: 'support@example.org',
  supportPhone: '+49 30 1234567',
  privacyUrl: 'https://example.org/datenschutz',
  appDownloadUrl: 'https://example.org/app',
  logoAssetId: 'logo',
};

/**
 * GET /app-settings, GET /app-settings/version (signed-in coaches) and GET /app-settings/asset/{id}.
 * Assets need no token: they are product files without patient data, and a plain link or <img> cannot
 * send the bearer header.
 */
export function appSettingsRoutes(ctx: Upstream): Router {
  const router = Router();
  const auth = requireAuth(ctx);

  router.get('/app-settings', auth, async (_req, res) => {
    const stored = await readSetting<Partial<AppSettings>>(ctx.db, 'app', {});
    const settings: AppSettings = { ...DEFAULT_APP_SETTINGS, ...stored, assets: [...ASSETS.values()].map(publicAsset) };
    sendAnswer(res, AppSettingsSchema, settings);
  });

  router.get('/app-settings/version', auth, (_req, res) => {
    const version: AppVersion = { version: pkg.version, name: pkg.name };
    sendAnswer(res, AppVersionSchema, version);
  });

  router.get('/app-settings/asset/:id', (req, res, next) => {
    const asset = ASSETS.get(req.params.id);
    if (!asset) throw notFound('Unknown asset', 'ASSET_NOT_FOUND');
    res.set({
      'Content-Type': asset.contentType,
      'Content-Length': String(asset.size),
      // Offer the German file name on download; inline so PDFs open in the browser's viewer.
      'Content-Disposition': `inline; filename="${asset.fileName}"; filename*=UTF-8''${encodeURIComponent(asset.fileName)}`,
      'X-Content-Type-Options': 'nosniff',
      // Product files change only with a release; the global no-store is for health data.
      'Cache-Control': 'public, max-age=3600',
    });
    const stream = createReadStream(asset.path);
    stream.on('error', next);
    stream.pipe(res);
  });

  return router;
}

import { Router } from 'express';
import type { Upstream } from '../../context.ts';
import { sendAnswer } from '../../http/answer.ts';
import { readSetting, trainingMaterials } from './repository.ts';
import { requireAuth } from '../../http/auth.ts';
import { ASSETS } from '../../assets/index.ts';
import { SystemSettingsSchema, TrainingMaterialListSchema, type SystemSettings, type TrainingMaterial } from '../../../../contract/schemas/system.ts';

/** GET /system/settings and GET /system/training-materials, for every signed-in coach. */
export function systemRoutes(ctx: Upstream): Router {
  const router = Router();
  const auth = requireAuth(ctx);

  router.get('/system/settings', auth, async (_req, res) => {
    const settings: SystemSettings = {
      enable_creating_new_patients: await readSetting(ctx.db, 'enable_creating_new_patients', true),
      instance_name: await readSetting(ctx.db, 'instance_name', 'CL'),
    };
    sendAnswer(res, SystemSettingsSchema, settings);
  });

  router.get('/system/training-materials', auth, async (_req, res) => {
    const rows = await trainingMaterials(ctx.db);
    const list: TrainingMaterial[] = [];
    for (const row of rows) {
      const asset = ASSETS.get(row.assetId);
      if (!asset) continue; // a material whose file is no longer shipped is not offered for download
      list.push({
        id: row.id,
        title: row.title,
        description: row.description,
        category: row.category as TrainingMaterial['category'],
        assetId: asset.id,
        fileName: asset.fileName,
        contentType: asset.contentType,
        size: asset.size,
        updatedAt: row.updatedAt,
      });
    }
    res.set('X-Total-Count', String(list.length));
    sendAnswer(res, TrainingMaterialListSchema, list);
  });

  return router;
}

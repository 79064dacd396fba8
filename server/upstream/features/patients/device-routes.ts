import { Router } from 'express';
import type { Upstream } from '../../context.ts';
import { sendAnswer } from '../../http/answer.ts';
import { currentCoach, requireAuth } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import { param } from '../../http/params.ts';
import { isoNow } from '../../lib/clock.ts';
import { deviceExists } from '../reference-data/repository.ts';
import { patientInPath } from './access.ts';
import { lentDevices, link, unlink } from './repository.ts';
import { DeviceListSchema, type Device } from '../../../../contract/schemas/devices.ts';

/** The devices lent to a patient (from the reference data's device list), for the coaches who may open the patient. */
export function deviceRoutes(ctx: Upstream): Router {
  const router = Router();
  const auth = requireAuth(ctx);
  const access = patientInPath(ctx);

  router.get('/patients/:id/devices', auth, async (req, res) => {
    const rows = await lentDevices(ctx.db, await access(req));
    res.set('X-Total-Count', String(rows.length));
    sendAnswer(res, DeviceListSchema, rows as unknown as Device[]);
  });

  router.post('/patients/:id/devices/:deviceId', auth, async (req, res) => {
    const patientId = await access(req);
    const deviceId = param(req, 'deviceId');
    if (!(await deviceExists(ctx.db, deviceId))) throw notFound('Unknown device', 'DEVICE_NOT_FOUND');
    await link(ctx.db, patientId, { entity: 'patient-device', otherId: deviceId }, currentCoach(req).id, isoNow(ctx.clock));
    res.status(204).end();
  });

  router.delete('/patients/:id/devices/:deviceId', auth, async (req, res) => {
    const patientId = await access(req);
    await unlink(ctx.db, patientId, { entity: 'patient-device', otherId: param(req, 'deviceId') }, currentCoach(req).id, isoNow(ctx.clock));
    res.status(204).end();
  });

  return router;
}

import { Router } from 'express';
import type { Upstream } from '../../context.ts';
import { patientInPath } from './access.ts';
import { sendAnswer } from '../../http/answer.ts';
import { assertPrimaryCoachOrAdmin, currentCoach, requireAuth } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import { audit, changesBetween } from '../audit/record.ts';
import { linkCoach } from '../coaches/routes.ts';
import { validate } from '../../http/validate.ts';
import { toCoach } from '../coaches/view.ts';
import { createPuk, toPatientToken } from '../access-codes/puks.ts';
import { createAccessCode } from '../access-codes/repository.ts';
import { isoNow } from '../../lib/clock.ts';
import { PrimaryCoachSchema, type PrimaryCoach } from '../../../../contract/schemas/patients.ts';
import { PukCreateSchema, PukListSchema, PukSchema } from '../../../../contract/schemas/puks.ts';
import { DeviceListSchema, type Device } from '../../../../contract/schemas/devices.ts';
import { CoachListSchema } from '../../../../contract/schemas/coaches.ts';
import { PatientTokenSchema } from '../../../../contract/schemas/patient-tokens.ts';
import { patientRecordRoutes } from './record-routes.ts';

/**
 * Everything under /patients/{id}/ except sync-db: primary coach, unused access code, recovery keys,
 * linked coaches and devices; appointments and the evaluation form in patient-records.ts. Only administrators and coaches
 * linked to the patient (primary or through patient coaches) get past `access` (403 otherwise, 404 for
 * an unknown patient).
 */
export function patientExtrasRoutes(ctx: Upstream): Router {
  const router = Router();
  const auth = requireAuth(ctx);
  const access = patientInPath(ctx);

  router.get('/patients/:id/primary-coach', auth, async (req, res) => {
    const patientId = await access(req);
    const row = await ctx.db
      .selectFrom('patients')
      .innerJoin('coaches', 'coaches.id', 'patients.primaryCoachId' as 'patients.id')
      .select(['coaches.id', 'coaches.firstName', 'coaches.lastName', 'coaches.title', 'coaches.email', 'coaches.phone'])
      .where('patients.id', '=', patientId)
      .executeTakeFirst();
    const card: PrimaryCoach = row ?? null;
    sendAnswer(res, PrimaryCoachSchema, card);
  });

  // The patient's newest unused, unexpired access code; a new one (for the primary coach, or the
  // caller when there is none) when all are used or expired.
  router.get('/patients/:id/token/get-or-create-unused', auth, async (req, res) => {
    const patientId = await access(req);
    const now = ctx.clock.now();
    const existing = await ctx.db
      .selectFrom('patient_tokens')
      .selectAll()
      .where('patientId', '=', patientId)
      .where('usedAt', 'is', null)
      .where('expiresAt', '>', now.toISOString())
      .orderBy('createdAt', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (existing) {
      sendAnswer(res, PatientTokenSchema, toPatientToken(existing));
      return;
    }
    const patient = await ctx.db.selectFrom('patients').select('primaryCoachId').where('id', '=', patientId).executeTakeFirstOrThrow();
    const coachId = (patient.primaryCoachId as string | null) ?? currentCoach(req).id;
    sendAnswer(res, PatientTokenSchema, toPatientToken(await createAccessCode(ctx, { coachId, patientId, actorId: currentCoach(req).id })), 201);
  });

  router.get('/patients/:id/puks', auth, async (req, res) => {
    const patientId = await access(req);
    const puks = await ctx.db.selectFrom('puks').selectAll().where('patientId', '=', patientId).orderBy('createdAt', 'desc').orderBy('id').execute();
    res.set('X-Total-Count', String(puks.length));
    sendAnswer(res, PukListSchema, puks);
  });

  router.post('/patients/:id/puks', auth, async (req, res) => {
    const patientId = await access(req);
    validate(PukCreateSchema, req.body ?? {});
    const now = ctx.clock.now();
    const puk = await ctx.db.transaction().execute(async (trx) => {
      const created = await createPuk(trx, { patientId, now });
      // The key itself never reaches the log: only that one was made, by whom and when.
      await audit(trx, {
        at: created.createdAt,
        actorId: currentCoach(req).id,
        action: 'create',
        entity: 'puk',
        entityId: created.id,
        patientId,
        changes: changesBetween('puk', undefined, { ...created }),
      });
      return created;
    });
    sendAnswer(res, PukSchema, puk, 201);
  });

  router.get('/patients/:id/coaches', auth, async (req, res) => {
    const patientId = await access(req);
    const rows = await ctx.db
      .selectFrom('patient_coaches')
      .innerJoin('coaches', 'coaches.id', 'patient_coaches.coachId')
      .selectAll('coaches')
      .where('patient_coaches.patientId', '=', patientId)
      .orderBy('coaches.lastNameKey')
      .orderBy('coaches.firstNameKey')
      .orderBy('coaches.id')
      .execute();
    res.set('X-Total-Count', String(rows.length));
    sendAnswer(res, CoachListSchema, rows.map(toCoach));
  });

  // Linking is idempotent (a second POST or DELETE changes nothing and still answers 204), so a retried
  // request after a network error does no harm. Who is in the care team is decided by the primary coach or an
  // administrator; a linked colleague may only leave it.
  router.post('/patients/:id/coaches/:coachId', auth, async (req, res) => {
    const patientId = String(req.params.id);
    const caller = currentCoach(req);
    await assertPrimaryCoachOrAdmin(ctx.db, caller, patientId);
    const coachId = String(req.params.coachId);
    if (!(await ctx.db.selectFrom('coaches').select('id').where('id', '=', coachId).executeTakeFirst())) throw notFound('Unknown coach', 'COACH_NOT_FOUND');
    await linkCoach(ctx, patientId, coachId, caller.id);
    res.status(204).end();
  });

  router.delete('/patients/:id/coaches/:coachId', auth, async (req, res) => {
    const patientId = String(req.params.id);
    const caller = currentCoach(req);
    const coachId = String(req.params.coachId);
    if (coachId === caller.id) await access(req);
    else await assertPrimaryCoachOrAdmin(ctx.db, caller, patientId);
    await unlink(ctx, 'patient-coach', patientId, coachId, caller.id);
    res.status(204).end();
  });

  router.get('/patients/:id/devices', auth, async (req, res) => {
    const patientId = await access(req);
    const rows = await ctx.db
      .selectFrom('patient_devices')
      .innerJoin('devices', 'devices.id', 'patient_devices.deviceId')
      .selectAll('devices')
      .where('patient_devices.patientId', '=', patientId)
      .orderBy('devices.name' as 'devices.id')
      .execute();
    res.set('X-Total-Count', String(rows.length));
    sendAnswer(res, DeviceListSchema, rows as unknown as Device[]);
  });

  router.post('/patients/:id/devices/:deviceId', auth, async (req, res) => {
    const patientId = await access(req);
    const deviceId = String(req.params.deviceId);
    if (!(await ctx.db.selectFrom('devices').select('id').where('id', '=', deviceId).executeTakeFirst())) throw notFound('Unknown device', 'DEVICE_NOT_FOUND');
    const at = isoNow(ctx.clock);
    await ctx.db.transaction().execute(async (trx) => {
      const result = await trx
        .insertInto('patient_devices')
        .values({ patientId, deviceId, createdAt: at })
        .onConflict((oc) => oc.columns(['patientId', 'deviceId']).doNothing())
        .executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) return;
      await audit(trx, {
        at,
        actorId: currentCoach(req).id,
        action: 'create',
        entity: 'patient-device',
        entityId: `${patientId}/${deviceId}`,
        patientId,
        changes: { deviceId: { before: null, after: deviceId } },
      });
    });
    res.status(204).end();
  });

  router.delete('/patients/:id/devices/:deviceId', auth, async (req, res) => {
    const patientId = await access(req);
    await unlink(ctx, 'patient-device', patientId, String(req.params.deviceId), currentCoach(req).id);
    res.status(204).end();
  });

  router.use(patientRecordRoutes(ctx));
  return router;
}

/** Removes a care-team or device link (audited); removing one that is not there changes nothing. */
async function unlink(ctx: Upstream, entity: 'patient-coach' | 'patient-device', patientId: string, otherId: string, actorId: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const result =
      entity === 'patient-coach'
        ? await trx.deleteFrom('patient_coaches').where('patientId', '=', patientId).where('coachId', '=', otherId).executeTakeFirst()
        : await trx.deleteFrom('patient_devices').where('patientId', '=', patientId).where('deviceId', '=', otherId).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return;
    const field = entity === 'patient-coach' ? 'coachId' : 'deviceId';
    await audit(trx, {
      at: isoNow(ctx.clock),
      actorId,
      action: 'delete',
      entity,
      entityId: `${patientId}/${otherId}`,
      patientId,
      changes: { [field]: { before: otherId, after: null } },
    });
  });
}

import { Router, type Request } from 'express';
import * as v from 'valibot';
import type { Upstream } from '../context.ts';
import { sendAnswer } from '../http/answer.ts';
import { assertPatientAccess, currentCoach, requireAuth } from '../http/auth.ts';
import { notFound, validationFailed } from '../http/errors.ts';
import { validate } from '../http/validate.ts';
import { toCoach } from '../lib/coach-view.ts';
import { createPuk, toPatientToken } from '../lib/patient-codes.ts';
import { createAccessCode } from '../lib/access-codes.ts';
import { isoNow } from '../lib/clock.ts';
import {
  AppointmentListSchema, AppointmentsUpdateSchema, EvaluationFormSchema, EvaluationFormUpdateSchema, PrimaryCoachSchema,
  type Appointment, type EvaluationForm, type PrimaryCoach,
} from '../../../client/api/schemas/patients.ts';
import { PukCreateSchema, PukListSchema, PukSchema } from '../../../client/api/schemas/puks.ts';
import { DeviceListSchema, type Device } from '../../../client/api/schemas/devices.ts';
import { CoachListSchema } from '../../../client/api/schemas/coaches.ts';
import { PatientTokenSchema } from '../../../client/api/schemas/patient-tokens.ts';

/**
 * Everything under /patients/{id}/ except sync-db: primary coach, unused access code, recovery keys,
 * linked coaches and devices, appointments and the evaluation form. Only administrators and coaches
 * linked to the patient (primary or through patient coaches) get past `access` (403 otherwise, 404 for
 * an unknown patient).
 */
export function patientExtrasRoutes(ctx: Upstream): Router {
  const router = Router();
  const auth = requireAuth(ctx);
  const access = async (req: Request) => {
    const patientId = String(req.params.id);
    await assertPatientAccess(ctx.db, currentCoach(req), patientId);
    return patientId;
  };

  router.get('/patients/:id/primary-coach', auth, async (req, res) => {
    const patientId = await access(req);
    const row = await ctx.db.selectFrom('patients').innerJoin('coaches', 'coaches.id', 'patients.primaryCoachId' as 'patients.id')
      .select(['coaches.id', 'coaches.firstName', 'coaches.lastName', 'coaches.title', 'coaches.email', 'coaches.phone'])
      .where('patients.id', '=', patientId).executeTakeFirst();
    const card: PrimaryCoach = row ?? null;
    sendAnswer(res, PrimaryCoachSchema, card);
  });

  // The patient's newest unused, unexpired access code; a new one (for the primary coach, or the
  // caller when there is none) when all are used or expired.
  router.get('/patients/:id/token/get-or-create-unused', auth, async (req, res) => {
    const patientId = await access(req);
    const now = ctx.clock.now();
    const existing = await ctx.db.selectFrom('patient_tokens').selectAll()
      .where('patientId', '=', patientId).where('usedAt', 'is', null).where('expiresAt', '>', now.toISOString())
      .orderBy('createdAt', 'desc').limit(1).executeTakeFirst();
    if (existing) {
      sendAnswer(res, PatientTokenSchema, toPatientToken(existing));
      return;
    }
    const patient = await ctx.db.selectFrom('patients').select('primaryCoachId').where('id', '=', patientId).executeTakeFirstOrThrow();
    const coachId = (patient.primaryCoachId as string | null) ?? currentCoach(req).id;
    sendAnswer(res, PatientTokenSchema, toPatientToken(await createAccessCode(ctx, { coachId, patientId })), 201);
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
    sendAnswer(res, PukSchema, await createPuk(ctx.db, { patientId, now: ctx.clock.now() }), 201);
  });

  router.get('/patients/:id/coaches', auth, async (req, res) => {
    const patientId = await access(req);
    const rows = await ctx.db.selectFrom('patient_coaches').innerJoin('coaches', 'coaches.id', 'patient_coaches.coachId')
      .selectAll('coaches').where('patient_coaches.patientId', '=', patientId)
      .orderBy('coaches.lastName').orderBy('coaches.firstName').execute();
    res.set('X-Total-Count', String(rows.length));
    sendAnswer(res, CoachListSchema, rows.map(toCoach));
  });

  // Linking is idempotent (a second POST or DELETE changes nothing and still answers 204), so a retried
  // request after a network error does no harm.
  router.post('/patients/:id/coaches/:coachId', auth, async (req, res) => {
    const patientId = await access(req);
    const coachId = String(req.params.coachId);
    if (!(await ctx.db.selectFrom('coaches').select('id').where('id', '=', coachId).executeTakeFirst())) throw notFound('Unknown coach', 'COACH_NOT_FOUND');
    await ctx.db.insertInto('patient_coaches').values({ patientId, coachId, createdAt: isoNow(ctx.clock) })
      .onConflict((oc) => oc.columns(['patientId', 'coachId']).doNothing()).execute();
    res.status(204).end();
  });

  router.delete('/patients/:id/coaches/:coachId', auth, async (req, res) => {
    const patientId = await access(req);
    await ctx.db.deleteFrom('patient_coaches').where('patientId', '=', patientId).where('coachId', '=', String(req.params.coachId)).execute();
    res.status(204).end();
  });

  router.get('/patients/:id/devices', auth, async (req, res) => {
    const patientId = await access(req);
    const rows = await ctx.db.selectFrom('patient_devices').innerJoin('devices', 'devices.id', 'patient_devices.deviceId')
      .selectAll('devices').where('patient_devices.patientId', '=', patientId).orderBy('devices.name' as 'devices.id').execute();
    res.set('X-Total-Count', String(rows.length));
    sendAnswer(res, DeviceListSchema, rows as unknown as Device[]);
  });

  router.post('/patients/:id/devices/:deviceId', auth, async (req, res) => {
    const patientId = await access(req);
    const deviceId = String(req.params.deviceId);
    if (!(await ctx.db.selectFrom('devices').select('id').where('id', '=', deviceId).executeTakeFirst())) throw notFound('Unknown device', 'DEVICE_NOT_FOUND');
    await ctx.db.insertInto('patient_devices').values({ patientId, deviceId, createdAt: isoNow(ctx.clock) })
      .onConflict((oc) => oc.columns(['patientId', 'deviceId']).doNothing()).execute();
    res.status(204).end();
  });

  router.delete('/patients/:id/devices/:deviceId', auth, async (req, res) => {
    const patientId = await access(req);
    await ctx.db.deleteFrom('patient_devices').where('patientId', '=', patientId).where('deviceId', '=', String(req.params.deviceId)).execute();
    res.status(204).end();
  });

  router.put('/patients/:id/appointments', auth, async (req, res) => {
    const patientId = await access(req);
    const list = validate(AppointmentsUpdateSchema, req.body);
    const seen = new Set<string>();
    list.forEach((item, i) => {
      if (seen.has(item.id)) throw validationFailed([{ path: `${i}.id`, message: 'Appointment ids must be unique' }]);
      seen.add(item.id);
    });
    const sorted: Appointment[] = [...list].sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt));
    await ctx.db.updateTable('patients').set({ appointments: JSON.stringify(sorted), updatedAt: isoNow(ctx.clock) }).where('id', '=', patientId).execute();
    sendAnswer(res, AppointmentListSchema, sorted);
  });

  router.get('/patients/:id/evaluation-form', auth, async (req, res) => {
    const patientId = await access(req);
    const row = await ctx.db.selectFrom('evaluation_forms').selectAll().where('patientId', '=', patientId).executeTakeFirst();
    const form: EvaluationForm = row
      ? { ...row, workAbility: row.workAbility as EvaluationForm['workAbility'], followUpRecommended: row.followUpRecommended === 1 }
      : { patientId, goalAttainment: null, workAbility: null, returnToWorkDate: null, followUpRecommended: false, summary: '', updatedBy: null, updatedAt: null };
    sendAnswer(res, EvaluationFormSchema, form);
  });

  router.put('/patients/:id/evaluation-form', auth, async (req, res) => {
    const patientId = await access(req);
    const body: v.InferOutput<typeof EvaluationFormUpdateSchema> = validate(EvaluationFormUpdateSchema, req.body);
    const row = {
      patientId,
      ...body,
      followUpRecommended: body.followUpRecommended ? 1 as const : 0 as const,
      updatedBy: currentCoach(req).id,
      updatedAt: isoNow(ctx.clock),
    };
    const { patientId: _key, ...changes } = row;
    await ctx.db.insertInto('evaluation_forms').values(row).onConflict((oc) => oc.column('patientId').doUpdateSet(changes)).execute();
    const form: EvaluationForm = { ...row, followUpRecommended: body.followUpRecommended };
    sendAnswer(res, EvaluationFormSchema, form);
  });

  return router;
}

import { Router } from 'express';
import * as v from 'valibot';
import type { Upstream } from '../../context.ts';
import { sendAnswer } from '../../http/answer.ts';
import { currentCoach, requireAuth } from '../../http/auth.ts';
import { forbidden } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { assertPatientAccess, canAccessPatient, patientInPath } from '../patients/access.ts';
import { primaryCoachIdOf } from '../patients/repository.ts';
import { targetCoach } from '../coaches/rules.ts';
import { createAccessCode, createPuk, listPuks, newestUnusedCode, toPatientToken } from './repository.ts';
import { CreatePatientTokenSchema } from '../../../../contract/schemas/coaches.ts';
import { PatientTokenSchema } from '../../../../contract/schemas/patient-tokens.ts';
import { PukCreateSchema, PukListSchema, PukSchema } from '../../../../contract/schemas/puks.ts';

/** A patient's access code for the app and its recovery keys; the /patientTokens resource is resource.ts. */
export function accessCodeRoutes(ctx: Upstream): Router {
  const router = Router();
  const auth = requireAuth(ctx);
  const access = patientInPath(ctx);

  // The patient's newest unused, unexpired access code; a new one (for the primary coach, or the
  // caller when there is none) when all are used or expired.
  router.get('/patients/:id/token/get-or-create-unused', auth, async (req, res) => {
    const patientId = await access(req);
    const caller = currentCoach(req);
    const existing = await newestUnusedCode(ctx.db, patientId, ctx.clock.now());
    if (existing) {
      sendAnswer(res, PatientTokenSchema, toPatientToken(existing));
      return;
    }
    const coachId = (await primaryCoachIdOf(ctx.db, patientId)) ?? caller.id;
    const created = await createAccessCode(ctx.db, ctx.clock.now(), { coachId, patientId, actorId: caller.id });
    sendAnswer(res, PatientTokenSchema, toPatientToken(created), 201);
  });

  router.get('/patients/:id/puks', auth, async (req, res) => {
    const puks = await listPuks(ctx.db, await access(req));
    res.set('X-Total-Count', String(puks.length));
    sendAnswer(res, PukListSchema, puks);
  });

  router.post('/patients/:id/puks', auth, async (req, res) => {
    const patientId = await access(req);
    validate(PukCreateSchema, req.body ?? {});
    sendAnswer(res, PukSchema, await createPuk(ctx.db, { patientId, now: ctx.clock.now(), actorId: currentCoach(req).id }), 201);
  });

  // A code for a coach's own patient (or, without a patient, one the coach assigns later).
  router.post('/coaches/:id/create-patient-token', auth, async (req, res) => {
    const caller = currentCoach(req);
    const target = await targetCoach(ctx, req, caller);
    const { patientId, label } = validate(CreatePatientTokenSchema, req.body ?? {});
    if (patientId) {
      await assertPatientAccess(ctx.db, caller, patientId);
      if (!(await canAccessPatient(ctx.db, { id: target.id, isAdmin: target.isAdmin === 1, isSuperAdmin: target.isSuperAdmin === 1 }, patientId))) {
        throw forbidden('The patient is not linked to this coach', 'PATIENT_NOT_LINKED');
      }
    }
    const token = await createAccessCode(ctx.db, ctx.clock.now(), { coachId: target.id, patientId: patientId ?? null, actorId: caller.id, label });
    res.status(201).json(v.parse(PatientTokenSchema, token));
  });

  return router;
}

import { Router } from 'express';
import * as v from 'valibot';
import type { Upstream } from '../../context.ts';
import { sendAnswer } from '../../http/answer.ts';
import { currentCoach, isAdmin, requireAuth } from '../../http/auth.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import { param } from '../../http/params.ts';
import { validate } from '../../http/validate.ts';
import { isoNow } from '../../lib/clock.ts';
import { coachExists, toCoach } from '../coaches/repository.ts';
import { assertPrimaryCoachOrAdmin, patientInPath } from './access.ts';
import { careTeam, findPatientByCode, link, primaryCoachCard, toPatient, unlink } from './repository.ts';
import { CoachConnectSchema, CoachListSchema } from '../../../../contract/schemas/coaches.ts';
import { PatientSchema, PrimaryCoachSchema } from '../../../../contract/schemas/patients.ts';

/**
 * Who looks after a patient: the primary coach's card and the care team. Linking is idempotent (a second POST or
 * DELETE changes nothing and still answers 204), so a retried request after a network error does no harm. Who is in
 * the care team is decided by the primary coach or an administrator; a linked colleague may only leave it.
 */
export function careTeamRoutes(ctx: Upstream): Router {
  const router = Router();
  const auth = requireAuth(ctx);
  const access = patientInPath(ctx);
  const unknownCoach = () => notFound('Unknown coach', 'COACH_NOT_FOUND');

  router.get('/patients/:id/primary-coach', auth, async (req, res) => {
    sendAnswer(res, PrimaryCoachSchema, await primaryCoachCard(ctx.db, await access(req)));
  });

  router.get('/patients/:id/coaches', auth, async (req, res) => {
    const rows = await careTeam(ctx.db, await access(req));
    res.set('X-Total-Count', String(rows.length));
    sendAnswer(res, CoachListSchema, rows.map(toCoach));
  });

  router.post('/patients/:id/coaches/:coachId', auth, async (req, res) => {
    const caller = currentCoach(req);
    const patientId = param(req, 'id');
    await assertPrimaryCoachOrAdmin(ctx.db, caller, patientId);
    const coachId = param(req, 'coachId');
    if (!(await coachExists(ctx.db, coachId))) throw unknownCoach();
    await link(ctx.db, patientId, { entity: 'patient-coach', otherId: coachId }, caller.id, isoNow(ctx.clock));
    res.status(204).end();
  });

  router.delete('/patients/:id/coaches/:coachId', auth, async (req, res) => {
    const caller = currentCoach(req);
    const patientId = param(req, 'id');
    const coachId = param(req, 'coachId');
    if (coachId === caller.id) await access(req);
    else await assertPrimaryCoachOrAdmin(ctx.db, caller, patientId);
    await unlink(ctx.db, patientId, { entity: 'patient-coach', otherId: coachId }, caller.id, isoNow(ctx.clock));
    res.status(204).end();
  });

  router.post('/coaches/:id/link-patient/:patientId', auth, async (req, res) => {
    const caller = currentCoach(req);
    const coachId = param(req, 'id');
    const patientId = param(req, 'patientId');
    if (!(await coachExists(ctx.db, coachId))) throw unknownCoach();
    await assertPrimaryCoachOrAdmin(ctx.db, caller, patientId);
    await link(ctx.db, patientId, { entity: 'patient-coach', otherId: coachId }, caller.id, isoNow(ctx.clock));
    res.status(204).end();
  });

  /*
   * A pseudonym code is printed, listed and exported: it names a patient, it is no credential. So joining a
   * care team by code is for those who could link anyone to the patient anyway: an administrator, or the
   * patient's primary coach (for whom it changes nothing). Everyone else gets the same 403 whether or not
   * the code exists, so the call cannot be used to find out which codes are in use, and every attempt,
   * successful or not, counts against the caller's limit.
   */
  router.post('/coaches/connect', auth, async (req, res) => {
    const coach = currentCoach(req);
    await ctx.rateLimiter.consume('connect', coach.id);
    const { patientCode } = validate(CoachConnectSchema, req.body);
    const patient = await findPatientByCode(ctx.db, patientCode.toUpperCase());
    if (!isAdmin(coach)) {
      if (!patient || patient.primaryCoachId !== coach.id) {
        throw forbidden("Only the patient's primary coach or an administrator can link a coach to a patient", 'PRIMARY_COACH_REQUIRED');
      }
    } else {
      if (!patient) throw notFound('No patient with this code', 'PATIENT_NOT_FOUND');
      await link(ctx.db, patient.id, { entity: 'patient-coach', otherId: coach.id }, coach.id, isoNow(ctx.clock));
    }
    res.json(v.parse(PatientSchema, toPatient(patient)));
  });

  return router;
}

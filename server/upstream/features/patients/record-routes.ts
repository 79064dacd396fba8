import { Router } from 'express';
import type * as v from 'valibot';
import type { Upstream } from '../../context.ts';
import { sendAnswer } from '../../http/answer.ts';
import { currentCoach, requireAuth } from '../../http/auth.ts';
import { conflict, preconditionFailed, validationFailed } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { etagOf, nextVersion, parseIfMatch, versionMatches } from '../../lib/versions.ts';
import { inTurn } from '../../lib/record-lock.ts';
import { patientInPath } from './access.ts';
import { appointmentsOf, evaluationFormVersion, readEvaluationForm, storeAppointments, storeEvaluationForm } from './repository.ts';
import {
  AppointmentListSchema,
  AppointmentsUpdateSchema,
  EvaluationFormSchema,
  EvaluationFormUpdateSchema,
  type Appointment,
} from '../../../../contract/schemas/patients.ts';

/** A write that lost the race this many times in a row gives up with 409 instead of looping. */
const MAX_WRITE_ATTEMPTS = 8;
const writeConflict = () => conflict('The record is being changed by others at this moment; try again', 'WRITE_CONFLICT');

/** The appointments, ids unique, in the order of their start (stored timestamps share one form, so text order is time order). */
function appointmentList(body: unknown): Appointment[] {
  const list = validate(AppointmentsUpdateSchema, body);
  const seen = new Set<string>();
  list.forEach((item, i) => {
    if (seen.has(item.id)) throw validationFailed([{ path: `${i}.id`, message: 'Appointment ids must be unique' }]);
    seen.add(item.id);
  });
  return [...list].sort((a, b) => (a.startsAt < b.startsAt ? -1 : a.startsAt > b.startsAt ? 1 : 0));
}

/**
 * The appointment list and the evaluation form of a patient: both versioned records (ETag, If-Match), for coaches
 * linked to the patient and administrators.
 */
export function patientRecordRoutes(ctx: Upstream): Router {
  const router = Router();
  const auth = requireAuth(ctx);
  const access = patientInPath(ctx);

  // The appointment list is part of the patient record: its version is the patient's (ETag, If-Match).
  router.put('/patients/:id/appointments', auth, async (req, res) => {
    const patientId = await access(req);
    const ifMatch = parseIfMatch(req.headers['if-match']);
    const sorted = appointmentList(req.body);
    const stale = async () => {
      const current = await appointmentsOf(ctx.db, patientId);
      return preconditionFailed(current.appointments, etagOf(current.version));
    };
    await inTurn(`patients:${patientId}`, async () => {
      for (let tries = 0; tries < MAX_WRITE_ATTEMPTS; tries++) {
        const stored = await appointmentsOf(ctx.db, patientId);
        if (!versionMatches(ifMatch, stored.version)) throw preconditionFailed(stored.appointments, etagOf(stored.version));
        const version = { before: stored.version, after: nextVersion(stored.version, ctx.clock.now()) };
        if (await storeAppointments(ctx.db, patientId, version, { before: stored.appointments, after: sorted }, currentCoach(req).id)) {
          res.set('ETag', etagOf(version.after));
          sendAnswer(res, AppointmentListSchema, sorted);
          return;
        }
        if (ifMatch !== undefined) throw await stale();
      }
      throw writeConflict();
    });
  });

  router.get('/patients/:id/evaluation-form', auth, async (req, res) => {
    const form = await readEvaluationForm(ctx.db, await access(req));
    if (form.updatedAt) res.set('ETag', etagOf(form.updatedAt));
    sendAnswer(res, EvaluationFormSchema, form);
  });

  // A replace (PUT) of the whole form, versioned by its updatedAt: If-Match of an older save answers 412.
  router.put('/patients/:id/evaluation-form', auth, async (req, res) => {
    const patientId = await access(req);
    const ifMatch = parseIfMatch(req.headers['if-match']);
    const body: v.InferOutput<typeof EvaluationFormUpdateSchema> = validate(EvaluationFormUpdateSchema, req.body);
    const stale = async () => {
      const current = await readEvaluationForm(ctx.db, patientId);
      return preconditionFailed(current, current.updatedAt ? etagOf(current.updatedAt) : undefined);
    };
    await inTurn(`evaluation_forms:${patientId}`, async () => {
      for (let tries = 0; tries < MAX_WRITE_ATTEMPTS; tries++) {
        const version = await evaluationFormVersion(ctx.db, patientId);
        if (!versionMatches(ifMatch, version)) throw await stale();
        const updatedAt = nextVersion(version, ctx.clock.now());
        const row = {
          patientId,
          ...body,
          followUpRecommended: body.followUpRecommended ? (1 as const) : (0 as const),
          updatedBy: currentCoach(req).id,
          updatedAt,
        };
        if (await storeEvaluationForm(ctx.db, row, version)) {
          res.set('ETag', etagOf(updatedAt));
          sendAnswer(res, EvaluationFormSchema, { ...row, followUpRecommended: body.followUpRecommended });
          return;
        }
        if (ifMatch !== undefined) throw await stale();
      }
      throw writeConflict();
    });
  });

  return router;
}

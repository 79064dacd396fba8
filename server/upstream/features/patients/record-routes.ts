import { Router } from 'express';
import type * as v from 'valibot';
import type { Upstream } from '../../context.ts';
import { patientInPath } from './access.ts';
import { sendAnswer } from '../../http/answer.ts';
import { currentCoach, requireAuth } from '../../http/auth.ts';
import { conflict, preconditionFailed, validationFailed } from '../../http/errors.ts';
import { audit, changesBetween } from '../audit/record.ts';
import { etagOf, nextVersion, parseIfMatch, versionMatches } from '../../lib/versions.ts';
import { validate } from '../../http/validate.ts';
import {
  AppointmentListSchema,
  AppointmentsUpdateSchema,
  EvaluationFormSchema,
  EvaluationFormUpdateSchema,
  type Appointment,
  type EvaluationForm,
} from '../../../../contract/schemas/patients.ts';

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
    const list = validate(AppointmentsUpdateSchema, req.body);
    const seen = new Set<string>();
    list.forEach((item, i) => {
      if (seen.has(item.id)) throw validationFailed([{ path: `${i}.id`, message: 'Appointment ids must be unique' }]);
      seen.add(item.id);
    });
    // Stored timestamps share one form (UTC, ms), so text order is time order.
    const sorted: Appointment[] = [...list].sort((a, b) => (a.startsAt < b.startsAt ? -1 : a.startsAt > b.startsAt ? 1 : 0));
    const appointments = JSON.stringify(sorted);
    for (let tries = 0; tries < 8; tries++) {
      const patient = await ctx.db.selectFrom('patients').select(['appointments', 'updatedAt']).where('id', '=', patientId).executeTakeFirstOrThrow();
      if (!versionMatches(ifMatch, patient.updatedAt)) throw preconditionFailed(JSON.parse(patient.appointments), etagOf(patient.updatedAt));
      const updatedAt = nextVersion(patient.updatedAt, ctx.clock.now());
      const done = await ctx.db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('patients')
          .set({ appointments, updatedAt })
          .where('id', '=', patientId)
          .where('updatedAt', '=', patient.updatedAt)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
        await audit(trx, {
          at: updatedAt,
          actorId: currentCoach(req).id,
          action: 'update',
          entity: 'patient',
          entityId: patientId,
          patientId,
          changes: changesBetween('patient', { appointments: patient.appointments }, { appointments }),
        });
        return true;
      });
      if (done) {
        res.set('ETag', etagOf(updatedAt));
        sendAnswer(res, AppointmentListSchema, sorted);
        return;
      }
      if (ifMatch !== undefined) {
        const current = await ctx.db.selectFrom('patients').select(['appointments', 'updatedAt']).where('id', '=', patientId).executeTakeFirstOrThrow();
        throw preconditionFailed(JSON.parse(current.appointments), etagOf(current.updatedAt));
      }
    }
    throw conflict('The record is being changed by others at this moment; try again', 'WRITE_CONFLICT');
  });

  const readForm = async (patientId: string): Promise<EvaluationForm> => {
    const row = await ctx.db.selectFrom('evaluation_forms').selectAll().where('patientId', '=', patientId).executeTakeFirst();
    return row
      ? { ...row, workAbility: row.workAbility as EvaluationForm['workAbility'], followUpRecommended: row.followUpRecommended === 1 }
      : {
          patientId,
          goalAttainment: null,
          workAbility: null,
          returnToWorkDate: null,
          followUpRecommended: false,
          summary: '',
          updatedBy: null,
          updatedAt: null,
        };
  };

  router.get('/patients/:id/evaluation-form', auth, async (req, res) => {
    const patientId = await access(req);
    const form = await readForm(patientId);
    if (form.updatedAt) res.set('ETag', etagOf(form.updatedAt));
    sendAnswer(res, EvaluationFormSchema, form);
  });

  // A replace (PUT) of the whole form, versioned by its updatedAt: If-Match of an older save answers 412.
  router.put('/patients/:id/evaluation-form', auth, async (req, res) => {
    const patientId = await access(req);
    const ifMatch = parseIfMatch(req.headers['if-match']);
    const body: v.InferOutput<typeof EvaluationFormUpdateSchema> = validate(EvaluationFormUpdateSchema, req.body);
    const coach = currentCoach(req);
    for (let tries = 0; tries < 8; tries++) {
      const before = await ctx.db.selectFrom('evaluation_forms').selectAll().where('patientId', '=', patientId).executeTakeFirst();
      if (!versionMatches(ifMatch, before?.updatedAt ?? null)) {
        const current = await readForm(patientId);
        throw preconditionFailed(current, current.updatedAt ? etagOf(current.updatedAt) : undefined);
      }
      const updatedAt = nextVersion(before?.updatedAt, ctx.clock.now());
      const row = { patientId, ...body, followUpRecommended: body.followUpRecommended ? (1 as const) : (0 as const), updatedBy: coach.id, updatedAt };
      const { patientId: _key, ...changes } = row;
      const done = await ctx.db.transaction().execute(async (trx) => {
        if (before) {
          const result = await trx
            .updateTable('evaluation_forms')
            .set(changes)
            .where('patientId', '=', patientId)
            .where('updatedAt', '=', before.updatedAt)
            .executeTakeFirst();
          if (Number(result.numUpdatedRows) === 0) return false;
        } else {
          const result = await trx
            .insertInto('evaluation_forms')
            .values(row)
            .onConflict((oc) => oc.column('patientId').doNothing())
            .executeTakeFirst();
          if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) return false;
        }
        await audit(trx, {
          at: updatedAt,
          actorId: coach.id,
          action: before ? 'update' : 'create',
          entity: 'evaluation-form',
          entityId: patientId,
          patientId,
          changes: changesBetween('evaluation-form', before ? { ...before } : undefined, row),
        });
        return true;
      });
      if (done) {
        res.set('ETag', etagOf(updatedAt));
        sendAnswer(res, EvaluationFormSchema, { ...row, followUpRecommended: body.followUpRecommended });
        return;
      }
      if (ifMatch !== undefined) {
        const current = await readForm(patientId);
        throw preconditionFailed(current, current.updatedAt ? etagOf(current.updatedAt) : undefined);
      }
    }
    throw conflict('The record is being changed by others at this moment; try again', 'WRITE_CONFLICT');
  });

  return router;
}

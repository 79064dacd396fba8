import { randomInt } from 'node:crypto';
import { issueAccessCode, newCode } from './coaches.ts';
import { type Lb3, bodyArg, httpError, optionsArg, pathArg, root } from './state.ts';

/*
 * The patient extras of docs/product.md#calls. Where a LoopBack relation gives the call (primary coach, coaches,
 * devices, puks, evaluation form) the relation does; links and the evaluation form's save are remote methods,
 * since the product links with POST/DELETE /patients/{id}/coaches/{coachId} rather than LoopBack's PUT …/rel/{fk},
 * and saves a form that may not exist yet with PUT.
 */

const callerId = (options: any) => Number(options?.accessToken?.userId);

async function patientOf(lb: Lb3, id: number) {
  const patient = await lb.models.Patient.findById(id);
  if (!patient) throw httpError(404, `Unknown "Patient" id "${id}".`, 'MODEL_NOT_FOUND');
  return patient;
}

/** POST and DELETE /patients/{id}/{path}/{otherId}: make or remove a link row. */
function linkCalls(lb: Lb3, path: string, link: any, target: any, key: string) {
  const { Patient } = lb.models;
  const name = path.replace(/^./, (c) => c.toUpperCase());
  // LoopBack's own DELETE …/{fk} would delete the coach or device itself, not the link.
  for (const method of ['destroyById', 'updateById', 'create', 'delete', 'link', 'unlink', 'exists'])
    Patient.disableRemoteMethodByName(`prototype.__${method}__${path}`);
  Patient[`link${name}`] = async (id: number, otherId: number) => {
    const patient = await patientOf(lb, id);
    if (!(await target.findById(otherId))) throw httpError(404, `Unknown "${target.modelName}" id "${otherId}".`, 'MODEL_NOT_FOUND');
    if (!(await link.findOne({ where: { patientId: patient.id, [key]: otherId } }))) await link.create({ patientId: patient.id, [key]: otherId });
  };
  Patient.remoteMethod(`link${name}`, { http: { verb: 'post', path: `/:id/${path}/:other` }, accepts: [pathArg('id'), pathArg('other')] });
  Patient[`unlink${name}`] = async (id: number, otherId: number) => {
    await link.destroyAll({ patientId: (await patientOf(lb, id)).id, [key]: otherId });
  };
  Patient.remoteMethod(`unlink${name}`, { http: { verb: 'delete', path: `/:id/${path}/:other` }, accepts: [pathArg('id'), pathArg('other')] });
}

export function definePatientCalls(lb: Lb3): void {
  const { Patient, PatientToken, PatientCoach, PatientDevice, Coach, Device, EvaluationForm, Puk, Comment } = lb.models;
  // A new patient belongs to whoever creates it unless the body names a lead coach, and gets a pseudonym.
  Patient.observe('before save', async (ctx: any) => {
    if (!ctx.isNewInstance || !ctx.instance) return;
    if (ctx.instance.leadCoachId == null && ctx.options?.accessToken) ctx.instance.leadCoachId = callerId(ctx.options);
    if (!ctx.instance.patientCode) ctx.instance.patientCode = `LB-${randomInt(1000, 9999)}`;
  });
  Comment.observe('before save', async (ctx: any) => {
    if (ctx.isNewInstance && ctx.instance && ctx.options?.accessToken) ctx.instance.authorId = callerId(ctx.options);
  });
  Puk.observe('before save', async (ctx: any) => {
    if (ctx.isNewInstance && ctx.instance && !ctx.instance.code) ctx.instance.code = newCode();
  });

  // LoopBack answers a belongsTo without a target as {}; like its hasOne, this API says 404 instead.
  Patient.afterRemote('prototype.__get__leadCoach', async (ctx: any) => {
    if (!ctx.result) throw httpError(404, 'No "Coach" instance(s) found', 'MODEL_NOT_FOUND');
  });

  Patient.unusedToken = async (id: number, options: any) => {
    const patient = await patientOf(lb, id);
    const open = await PatientToken.findOne({ where: { patientId: patient.id, usedAt: null, expiresAt: { gt: lb.now() } }, order: 'id DESC' });
    return open ?? issueAccessCode(lb, callerId(options), patient.id);
  };
  Patient.remoteMethod('unusedToken', {
    http: { verb: 'get', path: '/:id/token/get-or-create-unused' },
    accepts: [pathArg('id'), optionsArg],
    returns: root('PatientToken'),
  });

  linkCalls(lb, 'coaches', PatientCoach, Coach, 'coachId');
  linkCalls(lb, 'devices', PatientDevice, Device, 'deviceId');

  // A remote method that stores the list on the patient answers with the patient, as LoopBack methods often do.
  Patient.replaceAppointments = async (id: number, data: any) => {
    const patient = await patientOf(lb, id);
    const list = (Array.isArray(data) ? data : []).map((item: Record<string, unknown>, i: number) => ({ ...item, id: item.id ?? String(i + 1) }));
    return patient.updateAttributes({ appointments: list });
  };
  Patient.remoteMethod('replaceAppointments', {
    http: { verb: 'put', path: '/:id/appointments' },
    accepts: [pathArg('id'), { arg: 'data', type: ['object'], http: { source: 'body' } }],
    returns: root('Patient'),
  });

  // GET stays the hasOne's (404 without a row); PUT creates or replaces.
  for (const method of ['update', 'create', 'destroy']) Patient.disableRemoteMethodByName(`prototype.__${method}__evaluationForm`);
  Patient.saveEvaluationForm = async (id: number, data: any, options: any) => {
    const patient = await patientOf(lb, id);
    const existing = await EvaluationForm.findOne({ where: { patientId: patient.id } });
    const form = { ...data, patientId: patient.id, updatedBy: callerId(options) };
    return existing ? existing.replaceAttributes(form) : EvaluationForm.create(form);
  };
  Patient.remoteMethod('saveEvaluationForm', {
    http: { verb: 'put', path: '/:id/evaluation-form' },
    accepts: [pathArg('id'), bodyArg, optionsArg],
    returns: root('EvaluationForm'),
  });
}

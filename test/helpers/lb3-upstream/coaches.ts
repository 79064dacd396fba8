import { randomBytes, randomInt } from 'node:crypto';
import { mailResetLink, originOf } from './auth.ts';
import { type Lb3, bodyArg, filterArg, httpError, optionsArg, pathArg, reqArg, root } from './state.ts';

/* The coaches' calls beyond LoopBack's standard REST (docs/product.md#calls), as remote methods of Coach. */

const ALPHABET = 'ACDEFGHJKLMNPQRTUVWXY34679';
export const newCode = () => Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
const DAY = 86_400_000;
const FLAGS = ['isAdmin', 'isSuperAdmin', 'isHealthManager', 'isUserLocked'];
const SIGNED_IN_CALLS = [
  'connect',
  'isCoachLocked',
  'createPatientForMedian',
  'createTrialAccess',
  'sendVerificationEmail',
  'resetPasswordOf',
  'endSessions',
  'patientsOf',
  'createPatientToken',
  'linkPatient',
];

/** A new access code of the coach, for the patient when one is named. */
export function issueAccessCode(lb: Lb3, coachId: number, patientId: number | null) {
  return lb.models.PatientToken.create({ accessCode: newCode(), coachId, patientId, expiresAt: new Date(lb.now().getTime() + 90 * DAY) });
}

/** Who may see a coach's list, change a coach or mail them: the coach, or an administrator. */
async function selfOrAdmin(lb: Lb3, options: any, coachId: number) {
  const caller = await lb.models.Coach.findById(options.accessToken?.userId);
  if (!caller || (caller.id !== coachId && !caller.isAdmin && !caller.isSuperAdmin)) throw httpError(403, 'Authorization Required', 'AUTHORIZATION_REQUIRED');
  return caller;
}

export function defineCoachCalls(lb: Lb3): void {
  const { Coach, Patient, PatientCoach } = lb.models;
  Coach.settings.acls = [
    { principalType: 'ROLE', principalId: '$everyone', permission: 'DENY' },
    { principalType: 'ROLE', principalId: '$authenticated', permission: 'ALLOW', accessType: 'READ' },
    // The remote methods below; those about one coach check self-or-admin themselves.
    { principalType: 'ROLE', principalId: '$authenticated', permission: 'ALLOW', property: SIGNED_IN_CALLS },
    { principalType: 'ROLE', principalId: '$owner', permission: 'ALLOW', property: ['patchAttributes', 'replaceById'] },
    { principalType: 'ROLE', principalId: 'admin', permission: 'ALLOW' },
    { principalType: 'ROLE', principalId: '$everyone', permission: 'ALLOW', property: 'verifyEmail' },
  ];
  // An administrator creates a coach without a password; the coach sets one from the reset mail.
  Coach.observe('before save', async (ctx: any) => {
    if (ctx.isNewInstance && ctx.instance && !ctx.instance.password) ctx.instance.password = randomBytes(24).toString('hex');
  });
  // A coach changes their own profile, not their flags: only an administrator grants or locks.
  const guardFlags = async (ctx: any) => {
    const caller = await Coach.findById(ctx.req.accessToken?.userId);
    if (caller?.isAdmin || caller?.isSuperAdmin) return;
    const stored = await Coach.findById(ctx.instance?.id ?? ctx.args.id);
    const data = ctx.args.data ?? {};
    if (FLAGS.some((flag) => flag in data && Boolean(data[flag]) !== Boolean(stored?.[flag])))
      throw httpError(403, 'Only an administrator changes these flags');
  };
  Coach.beforeRemote('prototype.patchAttributes', guardFlags);
  Coach.beforeRemote('replaceById', guardFlags);
  const callerId = (options: any) => Number(options.accessToken?.userId);
  const access = async (coachId: number, data: Record<string, unknown>) => {
    const patient = await Patient.create({ ...data, leadCoachId: coachId });
    return { patient, token: await issueAccessCode(lb, coachId, patient.id) };
  };

  Coach.connect = async (data: any, options: any) => {
    const patient = await Patient.findOne({ where: { patientCode: data?.patientCode } });
    if (!patient) throw httpError(404, 'Unknown patient code');
    await PatientCoach.create({ patientId: patient.id, coachId: callerId(options) });
    return patient;
  };
  Coach.remoteMethod('connect', { http: { verb: 'post', path: '/connect' }, accepts: [bodyArg, optionsArg], returns: root('Patient') });

  Coach.isCoachLocked = async (options: any) => ({ locked: (await Coach.findById(callerId(options)))?.isUserLocked === true });
  Coach.remoteMethod('isCoachLocked', { http: { verb: 'get', path: '/isCoachLocked' }, accepts: [optionsArg], returns: root() });

  Coach.createPatientForMedian = async (data: any, options: any) => access(callerId(options), data ?? {});
  Coach.remoteMethod('createPatientForMedian', { http: { verb: 'post', path: '/createPatientForMedian' }, accepts: [bodyArg, optionsArg], returns: root() });

  Coach.createTrialAccess = async (options: any) => access(callerId(options), { firstName: 'Test', lastName: 'Zugang' });
  Coach.remoteMethod('createTrialAccess', { http: { verb: 'get', path: '/create-trial-access' }, accepts: [optionsArg], returns: root() });

  defineCoachAccountCalls(lb);
}

/** The calls about one coach, /coaches/{id}/…: the coach or an administrator. */
function defineCoachAccountCalls(lb: Lb3): void {
  const { Coach, Patient, PatientCoach, CoachToken } = lb.models;
  // Verification is off in this instance (emailVerified defaults to true): both calls only answer.
  Coach.sendVerificationEmail = async (id: number, options: any) => void (await selfOrAdmin(lb, options, id));
  Coach.remoteMethod('sendVerificationEmail', { http: { verb: 'post', path: '/:id/send-verification-email' }, accepts: [pathArg('id'), optionsArg] });
  Coach.verifyEmail = async () => {};
  Coach.remoteMethod('verifyEmail', { http: { verb: 'get', path: '/:id/verify-email' }, accepts: [pathArg('id')] });

  Coach.resetPasswordOf = async (id: number, req: any, options: any) => {
    await selfOrAdmin(lb, options, id);
    const coach = await Coach.findById(id);
    if (!coach) throw httpError(404, `Unknown "Coach" id "${id}".`, 'MODEL_NOT_FOUND');
    await mailResetLink(lb, coach.email, originOf(req));
  };
  Coach.remoteMethod('resetPasswordOf', { http: { verb: 'post', path: '/:id/reset-password' }, accepts: [pathArg('id'), reqArg, optionsArg] });

  Coach.endSessions = async (id: number, options: any) => {
    await selfOrAdmin(lb, options, id);
    await CoachToken.destroyAll({ userId: id, id: { neq: options.accessToken.id } });
  };
  Coach.remoteMethod('endSessions', { http: { verb: 'post', path: '/:id/end-sessions' }, accepts: [pathArg('id'), optionsArg] });

  // Primary (leadCoachId) or linked (PatientCoach): LoopBack's filter applies within that set.
  Coach.patientsOf = async (id: number, filter: any, options: any) => {
    await selfOrAdmin(lb, options, id);
    const linked = (await PatientCoach.find({ where: { coachId: id } })).map((link: any) => link.patientId);
    const own = { or: [{ leadCoachId: id }, { id: { inq: linked } }] };
    return Patient.find({ ...filter, where: filter?.where ? { and: [own, filter.where] } : own });
  };
  Coach.remoteMethod('patientsOf', {
    http: { verb: 'get', path: '/:id/patients' },
    accepts: [pathArg('id'), filterArg, optionsArg],
    returns: root('[Patient]'),
    accessType: 'READ',
  });

  Coach.createPatientToken = async (id: number, data: any, options: any) => {
    await selfOrAdmin(lb, options, id);
    return issueAccessCode(lb, id, data?.patientId ?? null);
  };
  Coach.remoteMethod('createPatientToken', {
    http: { verb: 'post', path: '/:id/create-patient-token' },
    accepts: [pathArg('id'), bodyArg, optionsArg],
    returns: root('PatientToken'),
  });

  Coach.linkPatient = async (id: number, patientId: number) => {
    if (!(await PatientCoach.findOne({ where: { coachId: id, patientId } }))) await PatientCoach.create({ coachId: id, patientId });
  };
  Coach.remoteMethod('linkPatient', { http: { verb: 'post', path: '/:id/link-patient/:patientId' }, accepts: [pathArg('id'), pathArg('patientId')] });
}

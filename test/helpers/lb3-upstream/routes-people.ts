import { randomInt } from 'node:crypto';
import type { Request, Router } from 'express';
import { LbError, caller, crud, filterOf, notFound, type Lb3 } from './rest.ts';
import type { Row } from './store.ts';

const TTL = 1_209_600;
const FLAGS = ['isUserLocked', 'isAdmin', 'isSuperAdmin', 'isHealthManager'] as const;

/** The user LoopBack's login and /auth/me give: the id, the email and the four flags of docs/product.md#entities. */
export const minimalUser = (coach: Row) => ({ id: coach.id, email: coach.email, ...Object.fromEntries(FLAGS.map((f) => [f, coach[f] === true])) });

const ALPHABET = 'ACDEFGHJKLMNPQRTUVWXY34679';
export const newCode = () => Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

function mail(lb: Lb3, req: Request, coach: Row): void {
  const token = lb.issueToken(coach.id, 'reset', 900);
  const origin = `${req.get('x-forwarded-proto') ?? req.protocol}://${req.get('x-forwarded-host') ?? req.get('host')}`;
  lb.outbox.push({ to: String(coach.email), link: `${origin}/reset-password?access_token=${token}`, at: lb.now().getTime() });
}

export function peopleRoutes(api: Router, lb: Lb3): void {
  const { coaches, patients, patientTokens, puks, patientCoaches, patientDevices, devices, evaluationForms } = lb.models;
  const isAdmin = (coach: Row) => coach.isAdmin === true || coach.isSuperAdmin === true;

  api.post('/auth/login', (req, res) => {
    const { email, password } = req.body ?? {};
    const coach = coaches.find({ where: { email: String(email ?? '').toLowerCase() } })[0];
    if (!coach || coach.password !== password) throw new LbError(401, 'login failed');
    if (coach.isUserLocked === true) throw new LbError(403, 'Account is locked');
    const id = lb.issueToken(coach.id, 'access', TTL);
    res.json({ id, ttl: TTL, created: lb.now().toISOString(), userId: coach.id, user: minimalUser(coach) });
  });
  api.post('/auth/logout', (_req, res) => {
    lb.tokens.delete(res.locals.token as string);
    res.status(204).end();
  });
  api.get('/auth/me', (_req, res) => {
    res.json(minimalUser(caller(res)));
  });
  api.patch('/auth/me/update-password', (req, res) => {
    const coach = caller(res);
    if (req.body?.oldPassword !== coach.password) throw new LbError(400, 'Invalid current password');
    coach.password = req.body.newPassword;
    res.status(204).end();
  });
  api.post('/auth/me/set-password', (req, res) => {
    caller(res).password = req.body?.password;
    lb.tokens.delete(res.locals.token as string);
    res.status(204).end();
  });
  api.post('/auth/forgot-password', (req, res) => {
    const coach = coaches.find({ where: { email: String(req.body?.email ?? '').toLowerCase() } })[0];
    if (coach) mail(lb, req, coach);
    res.status(204).end();
  });

  // Coaches: the stored properties without the password. Creating and changing others is for administrators.
  api.use('/coaches', (req, res, next) => {
    const own = /^\/(\d+)/.exec(req.path)?.[1] === String(caller(res).id);
    if ((req.method === 'POST' && req.path === '/') || req.method === 'DELETE' || (['PUT', 'PATCH'].includes(req.method) && !own)) {
      if (!isAdmin(caller(res))) throw new LbError(403, 'Authorization Required');
    }
    if (req.method === 'POST' && req.path === '/' && req.body?.email) req.body.email = String(req.body.email).toLowerCase();
    next();
  });
  api.post('/coaches/connect', (req, res) => {
    const patient = patients.find({ where: { patientCode: req.body?.patientCode } })[0];
    if (!patient) throw new LbError(404, 'Unknown patient code');
    patientCoaches.create({ patientId: patient.id, coachId: caller(res).id });
    res.json(patient);
  });
  api.get('/coaches/isCoachLocked', (_req, res) => {
    res.json({ locked: caller(res).isUserLocked === true });
  });
  const access = (coachId: number, patient: Row) => ({ patient, token: token(coachId, patient.id) });
  const token = (coachId: number | string, patientId: unknown) =>
    patientTokens.create({
      code: newCode(),
      coachId: Number(coachId),
      patientId: patientId ?? null,
      expiresAt: new Date(lb.now().getTime() + 90 * 86_400_000).toISOString(),
    });
  api.post('/coaches/createPatientForMedian', (req, res) => {
    res.json(access(caller(res).id, patients.create({ ...req.body, primaryCoachId: caller(res).id })));
  });
  api.get('/coaches/create-trial-access', (_req, res) => {
    res.json(access(caller(res).id, patients.create({ firstName: 'Test', lastName: 'Zugang', primaryCoachId: caller(res).id })));
  });
  api.post('/coaches/:id/send-verification-email', (_req, res) => void res.status(204).end());
  api.get('/coaches/:id/verify-email', (_req, res) => void res.status(204).end());
  api.post('/coaches/:id/reset-password', (req, res) => {
    const coach = coaches.findById(req.params.id);
    if (!coach) throw notFound('Coach', req.params.id);
    mail(lb, req, coach);
    res.status(204).end();
  });
  const patientsOf = (coachId: string) => {
    const linked = patientCoaches.find({ where: { coachId } }).map((link) => link.patientId);
    return { or: [{ primaryCoachId: coachId }, { id: { inq: linked } }] };
  };
  api.get('/coaches/:id/patients', (req, res) => {
    const filter = filterOf(req);
    res.json(patients.find({ ...filter, where: filter.where ? { and: [patientsOf(req.params.id), filter.where] } : patientsOf(req.params.id) }));
  });
  api.post('/coaches/:id/create-patient-token', (req, res) => {
    res.json(token(req.params.id, req.body?.patientId));
  });
  api.post('/coaches/:id/link-patient/:patientId', (req, res) => {
    patientCoaches.create({ patientId: Number(req.params.patientId), coachId: Number(req.params.id) });
    res.status(204).end();
  });
  // PUT is LoopBack's replaceById: the body becomes the whole record, and a User-based model without its password is
  // not valid (422). Only a PATCH changes some fields of a coach.
  api.put('/coaches/:id', (req, _res, next) => {
    if (!req.body?.password)
      throw new LbError(422, "The `Coach` instance is not valid. Details: `password` can't be blank (value: undefined).", 'ValidationError');
    next();
  });
  crud(api, '/coaches', coaches, { hide: ['password'] });

  // Patient extras (docs/product.md#calls).
  const patientOf = (id: string) => {
    const patient = patients.findById(id);
    if (!patient) throw notFound('Patient', id);
    return patient;
  };
  api.get('/patients/:id/primary-coach', (req, res) => {
    const coach = coaches.findById(patientOf(req.params.id).primaryCoachId);
    res.json(coach ? { id: coach.id, email: coach.email, firstName: coach.firstName, lastName: coach.lastName } : null);
  });
  api.get('/patients/:id/token/get-or-create-unused', (req, res) => {
    const patient = patientOf(req.params.id);
    const open = patientTokens.find({ where: { patientId: patient.id, usedAt: null, expiresAt: { gt: lb.now().toISOString() } } })[0];
    res.json(open ?? token(caller(res).id, patient.id));
  });
  api.get('/patients/:id/puks', (req, res) => {
    res.json(puks.find({ where: { patientId: patientOf(req.params.id).id }, order: 'id DESC' }));
  });
  api.post('/patients/:id/puks', (req, res) => {
    res.json(puks.create({ patientId: patientOf(req.params.id).id, code: newCode(), createdAt: lb.now().toISOString() }));
  });
  const links = (path: string, model: typeof patientCoaches, key: 'coachId' | 'deviceId', target: typeof coaches, hide: string[]) => {
    api.get(`/patients/:id/${path}`, (req, res) => {
      const ids = model.find({ where: { patientId: patientOf(req.params.id).id } }).map((link) => link[key]);
      res.json(target.find({ where: { id: { inq: ids } } }).map((row) => Object.fromEntries(Object.entries(row).filter(([k]) => !hide.includes(k)))));
    });
    api.post(`/patients/:id/${path}/:other`, (req, res) => {
      const patientId = patientOf(req.params.id).id;
      if (!target.findById(req.params.other)) throw notFound(target.name, req.params.other);
      if (!model.find({ where: { patientId, [key]: req.params.other } }).length) model.create({ patientId, [key]: Number(req.params.other) });
      res.status(204).end();
    });
    api.delete(`/patients/:id/${path}/:other`, (req, res) => {
      for (const link of model.find({ where: { patientId: patientOf(req.params.id).id, [key]: req.params.other } })) model.remove(link.id);
      res.status(204).end();
    });
  };
  links('coaches', patientCoaches, 'coachId', coaches, ['password']);
  links('devices', patientDevices, 'deviceId', devices, []);
  api.put('/patients/:id/appointments', (req, res) => {
    const list = (Array.isArray(req.body) ? req.body : []).map((item: Record<string, unknown>, i: number) => ({ ...item, id: item.id ?? i + 1 }));
    // As a LoopBack remote method that updates the patient answers: with the patient, not the list.
    res.json(patients.update(patientOf(req.params.id).id, { appointments: list }));
  });
  api.get('/patients/:id/evaluation-form', (req, res) => {
    const patientId = patientOf(req.params.id).id;
    // A hasOne without a row: LoopBack answers 404, the client shows an empty form that the first PUT creates.
    const form = evaluationForms.find({ where: { patientId } })[0];
    if (!form) throw new LbError(404, `No EvaluationForm for Patient "${patientId}".`);
    res.json(form);
  });
  api.put('/patients/:id/evaluation-form', (req, res) => {
    const patientId = patientOf(req.params.id).id;
    const existing = evaluationForms.find({ where: { patientId } })[0];
    const data = { ...req.body, patientId, updatedBy: caller(res).id, updatedAt: lb.now().toISOString() };
    res.json(existing ? evaluationForms.replace(existing.id, data) : evaluationForms.create(data));
  });
  crud(api, '/patients', patients);
}

import { Router, type Request } from 'express';
import type { Upstream } from '../context.ts';
import type { CoachTable, PatientTable } from '../db/types.ts';
import { resourceRoutes, type ResourceDefinition } from '../http/resource.ts';
import { currentCoach, isAdmin, requireAuth, patientAccessCondition, canAccessPatient, assertPatientAccess, assertPrimaryCoachOrAdmin, type SessionCoach } from '../http/auth.ts';
import { audit, changesBetween } from '../lib/audit.ts';
import { updateCoachColumns } from '../lib/coach-writes.ts';
import { badRequest, conflict, forbidden, notFound } from '../http/errors.ts';
import { validate } from '../http/validate.ts';
import { param } from '../http/params.ts';
import { jsonQueryValue, parseFilter, whereExpression } from '../http/filter.ts';
import { hashPassword, hashToken } from '../lib/secrets.ts';
import { toCoach } from '../lib/coach-view.ts';
import { orderColumn } from '../lib/sort-key.ts';
import { assertMayCreatePatients, checkPatientRow, toPatient, uniquePatientCode } from '../lib/patients.ts';
import { createAccessCode } from '../lib/access-codes.ts';
import { issueToken, VERIFY_TOKEN_TTL_SECONDS } from '../lib/tokens.ts';
import { publicOrigin, sendMail } from '../lib/outbox.ts';
import { newId } from '../lib/secrets.ts';
import { sendResetMail } from './auth.ts';
import { patientsResource } from './resources.ts';
import {
  CoachConnectSchema, CoachCreateSchema, CoachPatchSchema, CoachSchema, CoachUpdateSchema, CreatePatientTokenSchema,
} from '../../../client/api/schemas/coaches.ts';
import { PatientCreateSchema, PatientSchema } from '../../../client/api/schemas/patients.ts';
import { PatientAccessSchema, PatientTokenSchema } from '../../../client/api/schemas/patient-tokens.ts';
import * as v from 'valibot';

const FLAGS = ['isAdmin', 'isHealthManager', 'isUserLocked'] as const;
const TRIAL_DAYS = 14;

export const coachesResource: ResourceDefinition = {
  path: '/coaches',
  table: 'coaches',
  fields: {
    id: 'string', email: 'string', firstName: 'string', lastName: 'string', title: 'string', phone: 'string',
    isAdmin: 'boolean', isSuperAdmin: 'boolean', isHealthManager: 'boolean', isUserLocked: 'boolean',
    emailVerified: 'boolean', language: 'string', trialEndsAt: 'date', createdAt: 'date', updatedAt: 'date',
  },
  createSchema: CoachCreateSchema,
  updateSchema: CoachUpdateSchema,
  patchSchema: CoachPatchSchema,
  outputSchema: CoachSchema,
  access: {
    // Every coach sees the team (to link colleagues to a patient); the hash never leaves (toCoach).
    scopeList: (_ctx, _coach, query) => query,
    canRead: () => true,
    // Admins manage coaches; a coach may edit their own profile (not their flags, checked in toRow).
    canWrite: (_ctx, coach, row, op) => isAdmin(coach) || (op === 'update' && row.id === coach.id),
    canAttempt: (coach, op, id) => isAdmin(coach) || (op === 'update' && id === coach.id),
  },
  async toRow(input, { coach, existing }) {
    const row: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(input)) {
      if (key === 'password') continue;
      row[key] = typeof value === 'boolean' ? (value ? 1 : 0) : value;
    }
    if (!isAdmin(coach)) {
      for (const flag of FLAGS) {
        if (flag in row && row[flag] !== (existing?.[flag] ?? 0)) throw forbidden('Only administrators may change roles or locks', 'ADMIN_REQUIRED');
      }
      if ('email' in row && row.email !== existing?.email) throw forbidden('Only administrators may change email addresses', 'ADMIN_REQUIRED');
    }
    if (existing && existing.id === coach.id && (row.isUserLocked === 1 || row.isAdmin === 0)) {
      // An administrator who locks or demotes themselves could leave the instance without any admin.
      throw conflict('You cannot lock yourself or remove your own administrator role', 'SELF_LOCKOUT');
    }
    if (!existing) {
      row.passwordHash = typeof input.password === 'string' ? await hashPassword(input.password) : null;
      row.isSuperAdmin = 0;
      row.emailVerified = 0;
      row.trialEndsAt = null;
    } else if ('email' in row && row.email !== existing.email) {
      row.emailVerified = 0;
    }
    return row;
  },
  toOutput: (rows) => (rows as unknown as CoachTable[]).map(toCoach),
  audit: { entity: 'coach', patientIdOf: () => null },
  uniqueField: 'email',
  defaultOrder: { field: 'lastName', direction: 'asc' },
};

/** The /coaches calls of docs/product.md#calls: the standard set plus the coach-specific ones. */
export function coachRoutes(ctx: Upstream): Router {
  const router = Router();
  const auth = requireAuth(ctx);
  const { db } = ctx;

  /** The coach named in the path: 404 when unknown, 403 unless it is the caller or the caller is admin. */
  async function targetCoach(req: Request, self: SessionCoach): Promise<CoachTable> {
    const row = await db.selectFrom('coaches').selectAll().where('id', '=', param(req, 'id')).executeTakeFirst();
    if (!row) throw notFound('Unknown coach', 'COACH_NOT_FOUND');
    if (row.id !== self.id && !isAdmin(self)) throw forbidden('Only administrators may act for other coaches', 'ADMIN_REQUIRED');
    return row;
  }

  async function insertPatient(req: Request, coach: SessionCoach, input: Record<string, unknown>, extra: Partial<PatientTable> = {}) {
    await assertMayCreatePatients(ctx, coach);
    const now = ctx.clock.now().toISOString();
    const named = req.body && typeof req.body === 'object' && Object.hasOwn(req.body, 'primaryCoachId');
    const row: PatientTable = {
      id: newId(),
      patientCode: (input.patientCode as string | undefined) ?? (await uniquePatientCode(ctx)),
      firstName: String(input.firstName), lastName: String(input.lastName), birthDate: String(input.birthDate),
      gender: String(input.gender ?? 'unknown'), email: (input.email as string | null) ?? null, phone: (input.phone as string | null) ?? null,
      clinic: String(input.clinic ?? ''), aftercareStart: String(input.aftercareStart), aftercareEnd: String(input.aftercareEnd),
      primaryCoachId: named && (input.primaryCoachId || isAdmin(coach)) ? ((input.primaryCoachId as string | null) ?? null) : coach.id,
      diagnosisIds: JSON.stringify(input.diagnosisIds ?? []), costRateId: (input.costRateId as string | null) ?? null,
      appointments: '[]', lastDataAt: null, createdAt: now, updatedAt: now, ...extra,
    };
    await checkPatientRow(ctx, row);
    const taken = await db.selectFrom('patients').select('id').where('patientCode', '=', row.patientCode).executeTakeFirst();
    if (taken) throw conflict('patientCode is already taken', 'ALREADY_EXISTS', [{ path: 'patientCode', message: 'Already taken' }]);
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('patients').values(row).execute();
      await audit(trx, { at: now, actorId: coach.id, action: 'create', entity: 'patient', entityId: row.id, patientId: row.id, changes: changesBetween('patient', undefined, { ...row }) });
    });
    return row;
  }

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
    const refused = () => forbidden('Only the patient\'s primary coach or an administrator can link a coach to a patient', 'PRIMARY_COACH_REQUIRED');
    const patient = await db.selectFrom('patients').selectAll().where('patientCode', '=', patientCode.toUpperCase()).executeTakeFirst();
    if (!isAdmin(coach)) {
      if (!patient || patient.primaryCoachId !== coach.id) throw refused();
      res.json(v.parse(PatientSchema, toPatient(patient)));
      return;
    }
    if (!patient) throw notFound('No patient with this code', 'PATIENT_NOT_FOUND');
    await linkCoach(ctx, patient.id, coach.id, coach.id);
    res.json(v.parse(PatientSchema, toPatient(patient)));
  });

  router.get('/coaches/isCoachLocked', auth, (req, res) => {
    res.json({ locked: currentCoach(req).isUserLocked });
  });

  router.post('/coaches/createPatientForMedian', auth, async (req, res) => {
    const coach = currentCoach(req);
    const input = validate(PatientCreateSchema, req.body) as Record<string, unknown>;
    const patient = await insertPatient(req, coach, input);
    const token = await createAccessCode(ctx, { coachId: patient.primaryCoachId ?? coach.id, patientId: patient.id, actorId: coach.id });
    res.status(201).json(v.parse(PatientAccessSchema, { patient: toPatient(patient), token }));
  });

  router.get('/coaches/create-trial-access', auth, async (req, res) => {
    const coach = currentCoach(req);
    const now = ctx.clock.now();
    const today = now.toISOString().slice(0, 10);
    const end = new Date(now.getTime() + TRIAL_DAYS * 86400_000).toISOString().slice(0, 10);
    const count = await db.selectFrom('patients').select((eb) => eb.fn.countAll<number>().as('n')).where('firstName', '=', 'Testzugang').executeTakeFirstOrThrow();
    const patient = await insertPatient(req, coach, {
      firstName: 'Testzugang', lastName: String(Number(count.n) + 1), birthDate: '1970-01-01', gender: 'unknown',
      aftercareStart: today, aftercareEnd: end,
    });
    const token = await createAccessCode(ctx, { coachId: coach.id, patientId: patient.id, actorId: coach.id, expiresAt: `${end}T23:59:59.999Z` });
    res.status(201).json(v.parse(PatientAccessSchema, { patient: toPatient(patient), token }));
  });

  router.post('/coaches/:id/send-verification-email', auth, async (req, res) => {
    const target = await targetCoach(req, currentCoach(req));
    if (target.emailVerified === 1) throw conflict('The email address is already verified', 'ALREADY_VERIFIED');
    const { token } = await issueToken(ctx, target.id, 'verify', VERIFY_TOKEN_TTL_SECONDS);
    const link = `${publicOrigin(ctx)}/v2/coaches/${encodeURIComponent(target.id)}/verify-email?token=${encodeURIComponent(JSON.stringify(token))}`;
    await sendMail(ctx, {
      to: target.email,
      subject: 'E-Mail-Adresse bestätigen',
      text: [`Hallo ${target.firstName} ${target.lastName},`, '', 'bitte bestätigen Sie Ihre E-Mail-Adresse über diesen Link:', '', link, '', 'Der Link ist 7 Tage gültig.'].join('\n'),
    });
    res.status(204).end();
  });

  // Opened from the mail, without a session: the token in the link is the proof.
  router.get('/coaches/:id/verify-email', async (req, res) => {
    const token = jsonQueryValue(req.query as Record<string, unknown>, 'token');
    if (typeof token !== 'string' || !token) throw badRequest('token is required', [{ path: 'token', message: 'Required' }], 'INVALID_QUERY');
    const row = await db.selectFrom('access_tokens').selectAll()
      .where('id', '=', hashToken(token)).where('kind', '=', 'verify').where('coachId', '=', param(req, 'id'))
      .where('usedAt', 'is', null).where('expiresAt', '>', ctx.clock.now().toISOString()).executeTakeFirst();
    if (!row) throw badRequest('This verification link is invalid or expired', [{ path: 'token', message: 'Invalid or expired' }], 'INVALID_VERIFICATION_TOKEN');
    const now = ctx.clock.now();
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('access_tokens').set({ usedAt: now.toISOString() }).where('id', '=', row.id).execute();
      await updateCoachColumns(trx, row.coachId, row.coachId, now, { emailVerified: 1 });
    });
    if (req.accepts(['json', 'html']) === 'html') res.redirect(302, '/login');
    else res.status(204).end();
  });

  router.post('/coaches/:id/reset-password', auth, async (req, res) => {
    const target = await targetCoach(req, currentCoach(req));
    if (target.isUserLocked === 1) throw conflict('The account is locked', 'ACCOUNT_LOCKED');
    await sendResetMail(ctx, target, publicOrigin(ctx));
    res.status(204).end();
  });

  router.get('/coaches/:id/patients', auth, async (req, res) => {
    const target = await targetCoach(req, currentCoach(req));
    const filter = parseFilter(req.query as Record<string, unknown>, patientsResource.fields);
    let base = db.selectFrom('patients').where((eb) => patientAccessCondition(eb, target.id, 'patients.id'));
    if (filter.where) base = base.where((eb) => whereExpression(eb, filter.where!, 'patients'));
    const counted = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    let query = base.selectAll('patients');
    const order = filter.order.length ? filter.order : [{ field: 'lastName', direction: 'asc' as const }, { field: 'firstName', direction: 'asc' as const }];
    for (const o of order) query = query.orderBy(`patients.${orderColumn('patients', o.field)}` as 'patients.id', o.direction);
    if (!order.some((o) => o.field === 'id')) query = query.orderBy('patients.id');
    query = query.limit(filter.limit ?? 2 ** 31 - 1).offset(filter.skip);
    const rows = await query.execute();
    res.set('X-Total-Count', String(Number(counted.n)));
    res.json(rows.map((row) => v.parse(PatientSchema, toPatient(row))));
  });

  router.post('/coaches/:id/create-patient-token', auth, async (req, res) => {
    const caller = currentCoach(req);
    const target = await targetCoach(req, caller);
    const { patientId } = validate(CreatePatientTokenSchema, req.body ?? {});
    if (patientId) {
      await assertPatientAccess(db, caller, patientId);
      if (!(await canAccessPatient(db, { id: target.id, isAdmin: target.isAdmin === 1, isSuperAdmin: target.isSuperAdmin === 1 }, patientId))) {
        throw forbidden('The patient is not linked to this coach', 'PATIENT_NOT_LINKED');
      }
    }
    const token = await createAccessCode(ctx, { coachId: target.id, patientId: patientId ?? null, actorId: caller.id });
    res.status(201).json(v.parse(PatientTokenSchema, token));
  });

  router.post('/coaches/:id/link-patient/:patientId', auth, async (req, res) => {
    const caller = currentCoach(req);
    const coachId = param(req, 'id');
    const patientId = param(req, 'patientId');
    const target = await db.selectFrom('coaches').select('id').where('id', '=', coachId).executeTakeFirst();
    if (!target) throw notFound('Unknown coach', 'COACH_NOT_FOUND');
    // Who joins the care team is the primary coach's (or an administrator's) decision.
    await assertPrimaryCoachOrAdmin(db, caller, patientId);
    await linkCoach(ctx, patientId, coachId, caller.id);
    res.status(204).end();
  });

  router.delete('/coaches/:id', auth, (req, _res, next) => {
    const caller = currentCoach(req);
    // Only an administrator gets this far with their own id; everyone else gets the 403 of the resource.
    if (isAdmin(caller) && param(req, 'id') === caller.id) throw conflict('You cannot delete your own account', 'SELF_DELETE');
    next();
  });
  router.use(resourceRoutes(ctx, coachesResource));

  return router;
}

/** Adds the coach to the patient's care team (audited as done by actorId); linking twice is not an error. */
export async function linkCoach(ctx: Upstream, patientId: string, coachId: string, actorId: string): Promise<void> {
  const at = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    const result = await trx.insertInto('patient_coaches').values({ patientId, coachId, createdAt: at })
      .onConflict((oc) => oc.columns(['patientId', 'coachId']).doNothing()).executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) return;
    await audit(trx, {
      at, actorId, action: 'create', entity: 'patient-coach', entityId: `${patientId}/${coachId}`, patientId,
      changes: { coachId: { before: null, after: coachId } },
    });
  });
}

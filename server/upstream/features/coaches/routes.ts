import { Router, type Request } from 'express';
import type { Upstream } from '../../context.ts';
import type { PatientTable } from '../../db/types.ts';
import { type AnyQuery, resourceRoutes } from '../../resource/resource-routes.ts';
import { listPage } from '../../http/list-page.ts';
import {
  currentCoach,
  isAdmin,
  requireAuth,
  patientAccessCondition,
  canAccessPatient,
  assertPatientAccess,
  assertPrimaryCoachOrAdmin,
  type SessionCoach,
} from '../../http/auth.ts';
import { audit, insertAudited } from '../audit/record.ts';
import { conflict, forbidden, notFound } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { param } from '../../http/params.ts';
import { parseFilter } from '../../http/filter.ts';
import { assertMayCreatePatients, checkPatientRow, countPatientCreation, initialPrimaryCoach, toPatient, uniquePatientCode } from '../patients/rules.ts';
import { createAccessCode } from '../access-codes/repository.ts';
import { newId } from '../../lib/secrets.ts';
import { coachAccountRoutes, targetCoach } from './account-routes.ts';
import { coachesResource } from './resource.ts';

export { coachesResource };
import { patientsResource } from '../reference-data/resources.ts';
import { CoachConnectSchema, CreatePatientTokenSchema } from '../../../../contract/schemas/coaches.ts';
import { PatientCreateSchema, PatientSchema } from '../../../../contract/schemas/patients.ts';
import { PatientAccessSchema, PatientTokenSchema } from '../../../../contract/schemas/patient-tokens.ts';
import * as v from 'valibot';

const TRIAL_DAYS = 14;

/** The /coaches calls of docs/product.md#calls: the standard set plus the coach-specific ones. */
export function coachRoutes(ctx: Upstream): Router {
  const router = Router();
  const auth = requireAuth(ctx);
  const { db } = ctx;

  async function insertPatient(req: Request, coach: SessionCoach, input: Record<string, unknown>, extra: Partial<PatientTable> = {}) {
    await assertMayCreatePatients(ctx, coach);
    const now = ctx.clock.now().toISOString();
    const row: PatientTable = {
      id: newId(),
      patientCode: (input.patientCode as string | undefined) ?? (await uniquePatientCode(ctx)),
      firstName: String(input.firstName),
      lastName: String(input.lastName),
      birthDate: String(input.birthDate),
      gender: String(input.gender ?? 'unknown'),
      email: (input.email as string | null) ?? null,
      phone: (input.phone as string | null) ?? null,
      clinic: String(input.clinic ?? ''),
      aftercareStart: String(input.aftercareStart),
      aftercareEnd: String(input.aftercareEnd),
      primaryCoachId: initialPrimaryCoach(req.body, coach),
      diagnosisIds: JSON.stringify(input.diagnosisIds ?? []),
      costRateId: (input.costRateId as string | null) ?? null,
      appointments: '[]',
      lastDataAt: null,
      createdAt: now,
      updatedAt: now,
      ...extra,
    };
    await checkPatientRow(ctx, row);
    const taken = await db.selectFrom('patients').select('id').where('patientCode', '=', row.patientCode).executeTakeFirst();
    if (taken) throw conflict('patientCode is already taken', 'ALREADY_EXISTS', [{ path: 'patientCode', message: 'Already taken' }]);
    await insertAudited(db, 'patients', row, { at: now, actorId: coach.id, entity: 'patient', patientId: row.id });
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
    const refused = () => forbidden("Only the patient's primary coach or an administrator can link a coach to a patient", 'PRIMARY_COACH_REQUIRED');
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
    await countPatientCreation(ctx, coach);
    const patient = await insertPatient(req, coach, input);
    const token = await createAccessCode(ctx, { coachId: patient.primaryCoachId ?? coach.id, patientId: patient.id, actorId: coach.id });
    res.status(201).json(v.parse(PatientAccessSchema, { patient: toPatient(patient), token }));
  });

  router.get('/coaches/create-trial-access', auth, async (req, res) => {
    const coach = currentCoach(req);
    await countPatientCreation(ctx, coach);
    const now = ctx.clock.now();
    const today = now.toISOString().slice(0, 10);
    const end = new Date(now.getTime() + TRIAL_DAYS * 86400_000).toISOString().slice(0, 10);
    const count = await db
      .selectFrom('patients')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('firstName', '=', 'Testzugang')
      .executeTakeFirstOrThrow();
    const patient = await insertPatient(req, coach, {
      firstName: 'Testzugang',
      lastName: String(Number(count.n) + 1),
      birthDate: '1970-01-01',
      gender: 'unknown',
      aftercareStart: today,
      aftercareEnd: end,
    });
    const token = await createAccessCode(ctx, { coachId: coach.id, patientId: patient.id, actorId: coach.id, expiresAt: `${end}T23:59:59.999Z` });
    res.status(201).json(v.parse(PatientAccessSchema, { patient: toPatient(patient), token }));
  });

  router.get('/coaches/:id/patients', auth, async (req, res) => {
    const target = await targetCoach(ctx, req, currentCoach(req));
    const filter = parseFilter(req.query as Record<string, unknown>, patientsResource.fields);
    const scoped = db.selectFrom('patients').where((eb) => patientAccessCondition(eb, target.id, 'patients.id')) as AnyQuery;
    const { rows, total } = await listPage(scoped, 'patients', filter, [patientsResource.defaultOrder ?? []].flat());
    res.set('X-Total-Count', String(total));
    res.json((rows as unknown as PatientTable[]).map((row) => v.parse(PatientSchema, toPatient(row))));
  });

  router.post('/coaches/:id/create-patient-token', auth, async (req, res) => {
    const caller = currentCoach(req);
    const target = await targetCoach(ctx, req, caller);
    const { patientId, label } = validate(CreatePatientTokenSchema, req.body ?? {});
    if (patientId) {
      await assertPatientAccess(db, caller, patientId);
      if (!(await canAccessPatient(db, { id: target.id, isAdmin: target.isAdmin === 1, isSuperAdmin: target.isSuperAdmin === 1 }, patientId))) {
        throw forbidden('The patient is not linked to this coach', 'PATIENT_NOT_LINKED');
      }
    }
    const token = await createAccessCode(ctx, { coachId: target.id, patientId: patientId ?? null, actorId: caller.id, label });
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

  router.use(coachAccountRoutes(ctx));
  router.use(resourceRoutes(ctx, coachesResource));

  return router;
}

/** Adds the coach to the patient's care team (audited as done by actorId); linking twice is not an error. */
export async function linkCoach(ctx: Upstream, patientId: string, coachId: string, actorId: string): Promise<void> {
  const at = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    const result = await trx
      .insertInto('patient_coaches')
      .values({ patientId, coachId, createdAt: at })
      .onConflict((oc) => oc.columns(['patientId', 'coachId']).doNothing())
      .executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) return;
    await audit(trx, {
      at,
      actorId,
      action: 'create',
      entity: 'patient-coach',
      entityId: `${patientId}/${coachId}`,
      patientId,
      changes: { coachId: { before: null, after: coachId } },
    });
  });
}

import { Router, type Request } from 'express';
import * as v from 'valibot';
import type { Upstream } from '../../context.ts';
import type { PatientTable } from '../../db/types.ts';
import { currentCoach, requireAuth, type SessionCoach } from '../../http/auth.ts';
import { conflict } from '../../http/errors.ts';
import { parseFilter } from '../../http/filter.ts';
import { validate } from '../../http/validate.ts';
import { newId } from '../../lib/secrets.ts';
import { createAccessCode } from '../access-codes/repository.ts';
import { targetCoach } from '../coaches/rules.ts';
import { countTrialPatients, findPatientByCode, insertPatient, patientsOfCoach, toPatient, uniquePatientCode } from './repository.ts';
import { patientsResource } from './resource.ts';
import { assertMayCreatePatients, checkPatientRow, countPatientCreation, initialPrimaryCoach } from './rules.ts';
import { PatientCreateSchema, PatientSchema } from '../../../../contract/schemas/patients.ts';
import { PatientAccessSchema } from '../../../../contract/schemas/patient-tokens.ts';

/** A trial access runs this many days from today. */
const TRIAL_DAYS = 14;
const TRIAL_FIRST_NAME = 'Testzugang';

/** A new patient from parsed input, checked and stored with its audit entry (the rules of POST /patients). */
async function createPatient(ctx: Upstream, req: Request, coach: SessionCoach, input: Record<string, unknown>): Promise<PatientTable> {
  await assertMayCreatePatients(ctx, coach);
  const now = ctx.clock.now().toISOString();
  const row: PatientTable = {
    id: newId(),
    patientCode: (input.patientCode as string | undefined) ?? (await uniquePatientCode(ctx.db)),
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
  };
  await checkPatientRow(ctx, row);
  if (await findPatientByCode(ctx.db, row.patientCode)) {
    throw conflict('patientCode is already taken', 'ALREADY_EXISTS', [{ path: 'patientCode', message: 'Already taken' }]);
  }
  await insertPatient(ctx.db, row, coach.id);
  return row;
}

/** The patient calls under /coaches: a coach's patient list, a patient with its access code, a trial access. */
export function coachPatientRoutes(ctx: Upstream): Router {
  const router = Router();
  const auth = requireAuth(ctx);

  router.post('/coaches/createPatientForMedian', auth, async (req, res) => {
    const coach = currentCoach(req);
    const input = validate(PatientCreateSchema, req.body) as Record<string, unknown>;
    await countPatientCreation(ctx, coach);
    const patient = await createPatient(ctx, req, coach, input);
    const token = await createAccessCode(ctx.db, ctx.clock.now(), { coachId: patient.primaryCoachId ?? coach.id, patientId: patient.id, actorId: coach.id });
    res.status(201).json(v.parse(PatientAccessSchema, { patient: toPatient(patient), token }));
  });

  // A made-up patient whose access code ends with the trial, so a coach can show the app without real data.
  router.get('/coaches/create-trial-access', auth, async (req, res) => {
    const coach = currentCoach(req);
    await countPatientCreation(ctx, coach);
    const now = ctx.clock.now();
    const today = now.toISOString().slice(0, 10);
    const end = new Date(now.getTime() + TRIAL_DAYS * 86400_000).toISOString().slice(0, 10);
    const patient = await createPatient(ctx, req, coach, {
      firstName: TRIAL_FIRST_NAME,
      lastName: String((await countTrialPatients(ctx.db, TRIAL_FIRST_NAME)) + 1),
      birthDate: '1970-01-01',
      gender: 'unknown',
      aftercareStart: today,
      aftercareEnd: end,
    });
    const token = await createAccessCode(ctx.db, now, { coachId: coach.id, patientId: patient.id, actorId: coach.id, expiresAt: `${end}T23:59:59.999Z` });
    res.status(201).json(v.parse(PatientAccessSchema, { patient: toPatient(patient), token }));
  });

  router.get('/coaches/:id/patients', auth, async (req, res) => {
    const target = await targetCoach(ctx, req, currentCoach(req));
    const filter = parseFilter(req.query as Record<string, unknown>, patientsResource.fields);
    const { rows, total } = await patientsOfCoach(ctx.db, target.id, filter, [patientsResource.defaultOrder ?? []].flat());
    if (total !== undefined) res.set('X-Total-Count', String(total));
    res.json((rows as unknown as PatientTable[]).map((row) => v.parse(PatientSchema, toPatient(row))));
  });

  return router;
}

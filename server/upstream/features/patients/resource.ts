import { canAccessPatient, scopeToPatients } from './access.ts';
import { plain, stamps } from '../../resource/rows.ts';
import { forbidden } from '../../http/errors.ts';
import { isAdmin } from '../../http/auth.ts';
import type { ResourceDefinition } from '../../resource/definition.ts';
import type { PatientTable } from '../../db/types.ts';
import { checkPatientRow, countPatientCreation, initialPrimaryCoach, isPrimaryCoachOrAdmin, mayCreatePatients } from './rules.ts';
import { toPatient, uniquePatientCode } from './repository.ts';
import { PatientCreateSchema, PatientPatchSchema, PatientSchema, PatientUpdateSchema } from '../../../../contract/schemas/patients.ts';

/** /patients as a standard resource: who may create, change, hand over and delete a patient. */
export const patientsResource: ResourceDefinition = {
  path: '/patients',
  table: 'patients',
  fields: {
    id: 'string',
    patientCode: 'string',
    firstName: 'string',
    lastName: 'string',
    birthDate: 'date',
    gender: 'string',
    email: 'string',
    phone: 'string',
    clinic: 'string',
    aftercareStart: 'date',
    aftercareEnd: 'date',
    primaryCoachId: 'string',
    costRateId: 'string',
    lastDataAt: 'date',
    followUpAt: 'date',
    diagnosisIds: 'json',
    appointments: 'json',
    ...stamps,
  },
  createSchema: PatientCreateSchema,
  updateSchema: PatientUpdateSchema,
  patchSchema: PatientPatchSchema,
  outputSchema: PatientSchema,
  access: {
    scopeList: (ctx, coach, query) => scopeToPatients(ctx, coach, query, 'patients.id'),
    scopeOf: (coach) => (isAdmin(coach) ? 'all' : { caseloadOf: coach.id }),
    canRead: (ctx, coach, row) => canAccessPatient(ctx.db, coach, row.id),
    // Any coach may create a patient while the system setting allows it (into their own caseload).
    // Deleting is for the primary coach and administrators: a colleague in the care team may edit, not remove.
    canWrite: (ctx, coach, row, op) =>
      op === 'create' ? mayCreatePatients(ctx, coach) : op === 'delete' ? isPrimaryCoachOrAdmin(coach, row) : canAccessPatient(ctx.db, coach, row.id),
  },
  async toRow(input, { ctx, coach, existing, req }) {
    const row = plain(['diagnosisIds'])(input);
    const named = req.body && typeof req.body === 'object' && Object.hasOwn(req.body, 'primaryCoachId');
    // A PUT that leaves out primaryCoachId keeps the responsible coach (the schema would default it to null).
    if (existing && !named) delete row.primaryCoachId;
    // Handing a patient over is the primary coach's or an administrator's decision: a linked colleague who could
    // name themselves would take the patient from its coach.
    if (existing && Object.hasOwn(row, 'primaryCoachId') && row.primaryCoachId !== existing.primaryCoachId && !isPrimaryCoachOrAdmin(coach, existing)) {
      throw forbidden('Only the primary coach or an administrator may change the primary coach', 'PRIMARY_COACH_REQUIRED');
    }
    if (!existing) {
      await countPatientCreation(ctx, coach);
      row.patientCode ??= await uniquePatientCode(ctx.db);
      row.primaryCoachId = initialPrimaryCoach(req.body, coach);
      row.appointments = '[]';
      row.lastDataAt = null;
    }
    return row;
  },
  check: async (row, { ctx }) => checkPatientRow(ctx, row as unknown as PatientTable),
  toOutput: (rows) => (rows as unknown as PatientTable[]).map(toPatient),
  audit: { entity: 'patient', patientIdOf: (row) => row.id },
  uniqueField: 'patientCode',
  defaultOrder: [
    { field: 'lastName', direction: 'asc' },
    { field: 'firstName', direction: 'asc' },
  ],
};

import { randomInt } from 'node:crypto';
import type { Upstream } from '../../context.ts';
import type { PatientTable } from '../../db/types.ts';
import type { Patient } from '../../../../contract/schemas/patients.ts';
import { forbidden, validationFailed, type ErrorDetail } from '../../http/errors.ts';
import { readSetting } from '../settings/routes.ts';
import { CODE_ALPHABET } from '../../lib/codes.ts';

/** Stored row -> the PatientSchema answer. */
export function toPatient(row: PatientTable): Patient {
  return {
    id: row.id,
    patientCode: row.patientCode,
    firstName: row.firstName,
    lastName: row.lastName,
    birthDate: row.birthDate,
    gender: row.gender as Patient['gender'],
    email: row.email,
    phone: row.phone,
    clinic: row.clinic,
    aftercareStart: row.aftercareStart,
    aftercareEnd: row.aftercareEnd,
    primaryCoachId: row.primaryCoachId,
    diagnosisIds: JSON.parse(row.diagnosisIds),
    costRateId: row.costRateId,
    appointments: JSON.parse(row.appointments),
    lastDataAt: row.lastDataAt,
    followUpAt: row.followUpAt ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const LETTERS = CODE_ALPHABET.replace(/[0-9]/g, '');
/** Pseudonym like "NK-4821": two letters, four digits, no look-alike characters (read out on the phone). */
export function generatePatientCode(randomIndex: (n: number) => number = (n) => randomInt(n)): string {
  let code = `${LETTERS[randomIndex(LETTERS.length)] + LETTERS[randomIndex(LETTERS.length)]}-`;
  for (let i = 0; i < 4; i++) code += String(2 + randomIndex(8));
  return code;
}

export async function uniquePatientCode(ctx: Upstream): Promise<string> {
  for (;;) {
    const code = generatePatientCode();
    const taken = await ctx.db.selectFrom('patients').select('id').where('patientCode', '=', code).executeTakeFirst();
    if (!taken) return code;
  }
}

/**
 * Checks a patient row as it will be stored: the interval, and that every referenced coach,
 * cost rate and diagnosis exists (422 naming the field; a foreign key error would name none).
 */
export async function checkPatientRow(
  ctx: Upstream,
  row: Pick<PatientTable, 'aftercareStart' | 'aftercareEnd' | 'primaryCoachId' | 'costRateId' | 'diagnosisIds'>,
) {
  const details: ErrorDetail[] = [];
  if (row.aftercareEnd < row.aftercareStart) details.push({ path: 'aftercareEnd', message: 'aftercareEnd must not be before aftercareStart' });
  if (row.primaryCoachId) {
    const coach = await ctx.db.selectFrom('coaches').select('id').where('id', '=', row.primaryCoachId).executeTakeFirst();
    if (!coach) details.push({ path: 'primaryCoachId', message: 'Unknown coach' });
  }
  if (row.costRateId) {
    const rate = await ctx.db.selectFrom('cost_rates').select('id').where('id', '=', row.costRateId).executeTakeFirst();
    if (!rate) details.push({ path: 'costRateId', message: 'Unknown cost rate' });
  }
  const diagnosisIds = JSON.parse(row.diagnosisIds) as string[];
  if (diagnosisIds.length) {
    const found = await ctx.db.selectFrom('diagnoses').select('id').where('id', 'in', diagnosisIds).execute();
    const known = new Set(found.map((d) => d.id));
    diagnosisIds.forEach((id, i) => {
      if (!known.has(id)) details.push({ path: `diagnosisIds.${i}`, message: 'Unknown diagnosis' });
    });
  }
  if (details.length) throw validationFailed(details);
}

/**
 * Administrators always may create patients; other coaches only while the system setting
 * enable_creating_new_patients is on (the client hides the entry then, the server enforces it).
 */
export async function mayCreatePatients(ctx: Upstream, coach: { isAdmin: boolean; isSuperAdmin: boolean }): Promise<boolean> {
  if (coach.isAdmin || coach.isSuperAdmin) return true;
  return readSetting(ctx.db, 'enable_creating_new_patients', true);
}

/**
 * The primary coach of a new patient, the one rule for POST /patients and the coach routes that create patients.
 * A coach who is not an administrator creates into their own caseload, whatever the body names: handing a
 * patient to a colleague is a decision about an existing patient (PATCH primaryCoachId). An administrator's
 * patient gets the coach the body names, else the administrator; only an administrator may create a patient
 * without a primary coach, by naming none (null or an empty id) on purpose.
 */
export function initialPrimaryCoach(body: unknown, coach: { id: string; isAdmin: boolean; isSuperAdmin: boolean }): string | null {
  if (!coach.isAdmin && !coach.isSuperAdmin) return coach.id;
  const named = !!body && typeof body === 'object' && Object.hasOwn(body, 'primaryCoachId');
  const value = named ? (body as { primaryCoachId?: unknown }).primaryCoachId : undefined;
  if (typeof value === 'string' && value !== '') return value;
  if (named && (value === null || value === '')) return null;
  return coach.id;
}

/** One point of the coach's RATE_LIMIT_PATIENTS_PER_COACH for each patient or trial access they create (429 beyond). */
export async function countPatientCreation(ctx: Upstream, coach: { id: string }): Promise<void> {
  await ctx.rateLimiter.consume('patients', coach.id);
}

export async function assertMayCreatePatients(ctx: Upstream, coach: { isAdmin: boolean; isSuperAdmin: boolean }): Promise<void> {
  if (!(await mayCreatePatients(ctx, coach))) throw forbidden('Creating patients is switched off for coaches', 'PATIENT_CREATION_DISABLED');
}

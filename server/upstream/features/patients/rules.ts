import type { Upstream } from '../../context.ts';
import type { PatientTable } from '../../db/types.ts';
import { isAdmin } from '../../http/auth.ts';
import { forbidden, validationFailed, type ErrorDetail } from '../../http/errors.ts';
import { readSetting } from '../settings/repository.ts';
import { unknownReferences } from './repository.ts';

export const isPrimaryCoachOrAdmin = (coach: { id: string; isAdmin: boolean; isSuperAdmin: boolean }, patient: Record<string, unknown>) =>
  isAdmin(coach) || (patient.primaryCoachId !== null && patient.primaryCoachId === coach.id);

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
  details.push(...(await unknownReferences(ctx.db, row)));
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

export async function assertMayCreatePatients(ctx: Upstream, coach: { isAdmin: boolean; isSuperAdmin: boolean }): Promise<void> {
  if (!(await mayCreatePatients(ctx, coach))) throw forbidden('Creating patients is switched off for coaches', 'PATIENT_CREATION_DISABLED');
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

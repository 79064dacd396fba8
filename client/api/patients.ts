import { noneOn404, request } from '../data/http.ts';
import type { ListFilter } from '../../contract/schemas/common.ts';
import { CoachListSchema } from '../../contract/schemas/coaches.ts';
import { DeviceListSchema } from '../../contract/schemas/devices.ts';
import {
  AppointmentListSchema,
  EvaluationFormSchema,
  PatientListSchema,
  PatientSchema,
  PrimaryCoachSchema,
  type Appointment,
  type EvaluationFormUpdate,
  type Patient,
  type PatientCreate,
  type PatientPatch,
  type PatientUpdate,
} from '../../contract/schemas/patients.ts';
import { PatientTokenSchema } from '../../contract/schemas/patient-tokens.ts';
import { PukListSchema, PukSchema } from '../../contract/schemas/puks.ts';
import type { AftercareStatus } from '../../contract/schemas/statistics.ts';

const id = encodeURIComponent;

export const createPatient = (body: PatientCreate) => request('POST', '/patients', { body, schema: PatientSchema });
export const listPatients = (filter?: ListFilter, signal?: AbortSignal) =>
  request('GET', '/patients', { query: { filter }, schema: PatientListSchema, signal });
export const getPatient = (patientId: string, signal?: AbortSignal) => request('GET', `/patients/${id(patientId)}`, { schema: PatientSchema, signal });
// ifMatch: the version the write is based on (client/data/versions.ts); 412 when the patient changed since.
export const replacePatient = (patientId: string, body: PatientUpdate, ifMatch?: string | null) =>
  request('PUT', `/patients/${id(patientId)}`, { body, schema: PatientSchema, ifMatch });
export const updatePatient = (patientId: string, body: PatientPatch, ifMatch?: string | null) =>
  request('PATCH', `/patients/${id(patientId)}`, { body, schema: PatientSchema, ifMatch });
export const deletePatient = (patientId: string, ifMatch?: string | null) => request('DELETE', `/patients/${id(patientId)}`, { ifMatch });

// Singular sub-resources: a 404 is "none yet" (null), not an error (noneOn404).
export const getPrimaryCoach = (patientId: string, signal?: AbortSignal) =>
  noneOn404(request('GET', `/patients/${id(patientId)}/primary-coach`, { schema: PrimaryCoachSchema, signal }), null);
/** The patient's unused, unexpired access code; the server makes one when there is none (null: an API that did not). */
export const getOrCreateUnusedToken = (patientId: string, signal?: AbortSignal) =>
  noneOn404(request('GET', `/patients/${id(patientId)}/token/get-or-create-unused`, { schema: PatientTokenSchema, signal }), null);

export const listPuks = (patientId: string, signal?: AbortSignal) => request('GET', `/patients/${id(patientId)}/puks`, { schema: PukListSchema, signal });
export const createPuk = (patientId: string) => request('POST', `/patients/${id(patientId)}/puks`, { body: {}, schema: PukSchema });

export const listPatientCoaches = (patientId: string, signal?: AbortSignal) =>
  request('GET', `/patients/${id(patientId)}/coaches`, { schema: CoachListSchema, signal });
export const linkPatientCoach = (patientId: string, coachId: string) => request('POST', `/patients/${id(patientId)}/coaches/${id(coachId)}`);
export const unlinkPatientCoach = (patientId: string, coachId: string) => request('DELETE', `/patients/${id(patientId)}/coaches/${id(coachId)}`);

export const listPatientDevices = (patientId: string, signal?: AbortSignal) =>
  request('GET', `/patients/${id(patientId)}/devices`, { schema: DeviceListSchema, signal });
export const linkPatientDevice = (patientId: string, deviceId: string) => request('POST', `/patients/${id(patientId)}/devices/${id(deviceId)}`);
export const unlinkPatientDevice = (patientId: string, deviceId: string) => request('DELETE', `/patients/${id(patientId)}/devices/${id(deviceId)}`);

/**
 * Replaces the whole appointment list; answers it sorted by start. ifMatch: the patient's version. An API that
 * answers with something else (the patient, say) has stored them all the same: they are read from the patient again.
 */
export const saveAppointments = (patientId: string, appointments: Appointment[], ifMatch?: string | null) =>
  request('PUT', `/patients/${id(patientId)}/appointments`, {
    body: appointments,
    schema: AppointmentListSchema,
    ifMatch,
    reread: async () => {
      const { data, etag } = await getPatient(patientId);
      return { data: data.appointments, etag };
    },
  });

/** null: the patient has no evaluation form yet (404); the first PUT creates it. */
export const getEvaluationForm = (patientId: string, signal?: AbortSignal) =>
  noneOn404(request('GET', `/patients/${id(patientId)}/evaluation-form`, { schema: EvaluationFormSchema, signal }), null);
export const saveEvaluationForm = (patientId: string, body: EvaluationFormUpdate, ifMatch?: string | null) =>
  request('PUT', `/patients/${id(patientId)}/evaluation-form`, { body, schema: EvaluationFormSchema, ifMatch });

/** Aftercare status on `today` (YYYY-MM-DD): the interval's days are inclusive. */
export function aftercareStatus(patient: Pick<Patient, 'aftercareStart' | 'aftercareEnd'>, today: string): AftercareStatus {
  if (today < patient.aftercareStart) return 'planned';
  if (today > patient.aftercareEnd) return 'completed';
  return 'active';
}

/** The list-filter `where` that selects patients with this aftercare status on `today`. */
export function aftercareStatusWhere(status: AftercareStatus, today: string): Record<string, unknown> {
  if (status === 'planned') return { aftercareStart: { gt: today } };
  if (status === 'completed') return { aftercareEnd: { lt: today } };
  return { and: [{ aftercareStart: { lte: today } }, { aftercareEnd: { gte: today } }] };
}

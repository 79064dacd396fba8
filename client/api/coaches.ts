import { ApiError, request } from '../data/http.ts';
import { getPatientToken } from './patient-tokens.ts';
import type { ListFilter } from '../../contract/schemas/common.ts';
import { CoachListSchema, CoachLockedSchema, CoachSchema, type CoachCreate, type CoachPatch, type CoachUpdate } from '../../contract/schemas/coaches.ts';
import { PatientListSchema, PatientSchema, type PatientCreate } from '../../contract/schemas/patients.ts';
import { PatientAccessSchema, PatientTokenSchema } from '../../contract/schemas/patient-tokens.ts';

const id = encodeURIComponent;

export const createCoach = (body: CoachCreate) => request('POST', '/coaches', { body, schema: CoachSchema });
export const listCoaches = (filter?: ListFilter, signal?: AbortSignal) => request('GET', '/coaches', { query: { filter }, schema: CoachListSchema, signal });
export const getCoach = (coachId: string, signal?: AbortSignal) => request('GET', `/coaches/${id(coachId)}`, { schema: CoachSchema, signal });
// ifMatch: the version the write is based on (client/data/versions.ts); 412 when the coach changed since.
export const replaceCoach = (coachId: string, body: CoachUpdate, ifMatch?: string | null) =>
  request('PUT', `/coaches/${id(coachId)}`, { body, schema: CoachSchema, ifMatch });
export const updateCoach = (coachId: string, body: CoachPatch, ifMatch?: string | null) =>
  request('PATCH', `/coaches/${id(coachId)}`, { body, schema: CoachSchema, ifMatch });
export const deleteCoach = (coachId: string, ifMatch?: string | null) => request('DELETE', `/coaches/${id(coachId)}`, { ifMatch });

/** An administrator joins the care team of the patient with this pseudonym code (the code is no credential: others get 403). */
export const connectToPatient = (patientCode: string) => request('POST', '/coaches/connect', { body: { patientCode }, schema: PatientSchema });
export const isCoachLocked = (signal?: AbortSignal) => request('GET', '/coaches/isCoachLocked', { schema: CoachLockedSchema, signal });
/** Creates a patient referred by a MEDIAN clinic together with the access code to hand over. */
export const createPatientForMedian = (body: PatientCreate) => request('POST', '/coaches/createPatientForMedian', { body, schema: PatientAccessSchema });
/** A 14-day trial patient with an access code, linked to the calling coach, to try the app. */
export const createTrialAccess = () => request('GET', '/coaches/create-trial-access', { schema: PatientAccessSchema });

export const sendVerificationEmail = (coachId: string) => request('POST', `/coaches/${id(coachId)}/send-verification-email`);
export const verifyEmail = (coachId: string, token: string) => request('GET', `/coaches/${id(coachId)}/verify-email`, { query: { token } });
/** Sends the coach the reset mail (admins, for someone who forgot their password). */
export const resetCoachPassword = (coachId: string) => request('POST', `/coaches/${id(coachId)}/reset-password`);
/** Ends every login of the coach (the caller's own current one stays when it is their account). */
export const endCoachSessions = (coachId: string) => request('POST', `/coaches/${id(coachId)}/end-sessions`);

export const listCoachPatients = (coachId: string, filter?: ListFilter, signal?: AbortSignal) =>
  request('GET', `/coaches/${id(coachId)}/patients`, { query: { filter }, schema: PatientListSchema, signal });
export const createPatientToken = (coachId: string, body: { patientId?: string; label?: string } = {}) =>
  request('POST', `/coaches/${id(coachId)}/create-patient-token`, {
    body,
    schema: PatientTokenSchema,
    // Made, whatever the answer's shape: the code is read from the token record when the answer names it.
    reread: (made) => (made.id ? getPatientToken(made.id) : Promise.reject(new ApiError(0, 'NO_ID', 'The answer names no token'))),
  });
export const linkPatient = (coachId: string, patientId: string) => request('POST', `/coaches/${id(coachId)}/link-patient/${id(patientId)}`);

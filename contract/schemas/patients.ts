import * as v from 'valibot';
import { DateSchema, IdSchema, TimestampSchema, intRange, textField } from './common.ts';

export const GenderSchema = v.picklist(['female', 'male', 'diverse', 'unknown']);

/** A planned contact between coach and patient (PUT /patients/{id}/appointments replaces the whole list). */
export const AppointmentSchema = v.object({
  /** Client-chosen or server-assigned; kept stable across PUTs so the client can edit one item. */
  id: IdSchema,
  /** Start of the appointment. */
  startsAt: TimestampSchema,
  durationMinutes: intRange(5, 480),
  /** phone = Telefoncoaching, video = Videosprechstunde, onsite = Termin vor Ort. */
  type: v.picklist(['phone', 'video', 'onsite']),
  /** Free note for the coach, e.g. topic of the call; empty when none. */
  note: v.optional(v.pipe(v.string(), v.maxLength(2000)), ''),
});
export type Appointment = v.InferOutput<typeof AppointmentSchema>;
export const AppointmentListSchema = v.array(AppointmentSchema);
/** Body of PUT /patients/{id}/appointments; at most 200 per patient. */
export const AppointmentsUpdateSchema = v.pipe(v.array(AppointmentSchema), v.maxLength(200));

/**
 * A patient in aftercare (Nachsorge). Aftercare status is not stored: it follows from the interval
 * (see `aftercareStatus` in client/api/patients.ts): planned before aftercareStart, active up to and
 * including aftercareEnd, completed after.
 */
export const PatientSchema = v.object({
  id: IdSchema,
  /** Pseudonym used in the app, in exports and on the phone instead of the name, e.g. "NK-4821". */
  patientCode: v.string(),
  firstName: v.string(),
  lastName: v.string(),
  birthDate: v.string(),
  gender: GenderSchema,
  email: v.nullable(v.string()),
  phone: v.nullable(v.string()),
  /** Rehabilitation clinic the patient came from, e.g. "Reha-Zentrum Bad Kissingen". */
  clinic: v.string(),
  /** First and last day of aftercare (inclusive), `YYYY-MM-DD`. */
  aftercareStart: v.string(),
  aftercareEnd: v.string(),
  /** Coach responsible for the patient; null when the patient has not been assigned yet. */
  primaryCoachId: v.nullable(IdSchema),
  /** ICD-10 diagnoses (ids of /diagnosis). */
  diagnosisIds: v.array(IdSchema),
  /** Billing rate (id of /cost-rates); null when not billed. */
  costRateId: v.nullable(IdSchema),
  /** Planned contacts, soonest first. */
  appointments: AppointmentListSchema,
  /** Last time the patient's app synchronised data (any sync-db collection); null when never. */
  lastDataAt: v.nullable(v.string()),
  /**
   * Wiedervorlage: until this day (`YYYY-MM-DD`, inclusive) the patient is left out of the dashboard's "Brauchen
   * Aufmerksamkeit"; null when none. Set with PATCH; a PUT of the master data leaves it as it is.
   */
  followUpAt: v.nullable(v.string()),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type Patient = v.InferOutput<typeof PatientSchema>;
export const PatientListSchema = v.array(PatientSchema);

const optionalText = (max: number) => v.nullish(v.pipe(v.string(), v.trim(), v.maxLength(max)), null);
const patientFields = {
  firstName: textField(100),
  lastName: textField(100),
  birthDate: DateSchema,
  gender: v.optional(GenderSchema, 'unknown'),
  email: v.nullish(v.pipe(v.string(), v.trim(), v.email(), v.maxLength(254)), null),
  phone: optionalText(50),
  clinic: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200)), ''),
  aftercareStart: DateSchema,
  aftercareEnd: DateSchema,
  primaryCoachId: v.nullish(IdSchema, null),
  diagnosisIds: v.optional(v.pipe(v.array(IdSchema), v.maxLength(20)), []),
  costRateId: v.nullish(IdSchema, null),
};
/** The interval check, reported on aftercareEnd so a form can show it beside that field. */
function endNotBeforeStart<T extends { aftercareStart: string; aftercareEnd: string }>() {
  return v.forward<T, v.CheckIssue<T>, ['aftercareEnd']>(
    v.check<T, string>((p) => p.aftercareEnd >= p.aftercareStart, 'aftercareEnd must not be before aftercareStart'),
    // The path cannot be checked against a generic T; both callers' objects have aftercareEnd.
    ['aftercareEnd'] as never,
  );
}

/**
 * POST /patients. patientCode may be omitted: the server then makes a unique pseudonym.
 * primaryCoachId defaults to the calling coach.
 */
export const PatientCreateSchema = v.pipe(
  v.object({ ...patientFields, patientCode: v.optional(v.pipe(v.string(), v.trim(), v.regex(/^[A-Z0-9-]{3,20}$/))) }),
  endNotBeforeStart(),
);
export type PatientCreate = v.InferInput<typeof PatientCreateSchema>;
/** PUT /patients/{id}: all master data (appointments have their own call). */
export const PatientUpdateSchema = v.pipe(v.object(patientFields), endNotBeforeStart());
export type PatientUpdate = v.InferInput<typeof PatientUpdateSchema>;
/** PATCH /patients/{id}: any subset; the server checks the interval against the stored other end. */
export const PatientPatchSchema = v.partial(
  v.object({
    firstName: patientFields.firstName,
    lastName: patientFields.lastName,
    birthDate: DateSchema,
    gender: GenderSchema,
    email: v.nullable(v.pipe(v.string(), v.trim(), v.email(), v.maxLength(254))),
    phone: v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(50))),
    clinic: v.pipe(v.string(), v.trim(), v.maxLength(200)),
    aftercareStart: DateSchema,
    aftercareEnd: DateSchema,
    primaryCoachId: v.nullable(IdSchema),
    diagnosisIds: v.pipe(v.array(IdSchema), v.maxLength(20)),
    costRateId: v.nullable(IdSchema),
    followUpAt: v.nullable(DateSchema),
  }),
);
export type PatientPatch = v.InferInput<typeof PatientPatchSchema>;

/** GET /patients/{id}/primary-coach: the responsible coach's contact card, null when unassigned. */
export const PrimaryCoachSchema = v.nullable(
  v.object({ id: IdSchema, firstName: v.string(), lastName: v.string(), title: v.string(), email: v.string(), phone: v.string() }),
);
export type PrimaryCoach = v.InferOutput<typeof PrimaryCoachSchema>;

/**
 * GET/PUT /patients/{id}/evaluation-form: the coach's closing assessment of the aftercare
 * (Abschlussbewertung), filled in towards the end of the interval.
 */
export const EvaluationFormSchema = v.object({
  patientId: IdSchema,
  /** How far the rehabilitation goals were reached, 1 (not at all) to 5 (fully); null while open. */
  goalAttainment: v.nullable(intRange(1, 5)),
  /** Ability to work at the end of aftercare (Arbeitsfähigkeit); null while open. */
  workAbility: v.nullable(v.picklist(['able', 'limited', 'unable', 'not-applicable'])),
  /** Day of return to work, when known. */
  returnToWorkDate: v.nullable(v.string()),
  /** The coach recommends further treatment (e.g. outpatient psychotherapy, IRENA). */
  followUpRecommended: v.boolean(),
  /** Free-text summary for the file. */
  summary: v.string(),
  /** Who saved last and when; null before the first save. */
  updatedBy: v.nullable(IdSchema),
  updatedAt: v.nullable(v.string()),
});
export type EvaluationForm = v.InferOutput<typeof EvaluationFormSchema>;
/** The form of a patient nobody has saved one for yet: what the upstream answers and the client shows after a 404. */
export const emptyEvaluationForm = (patientId: string): EvaluationForm => ({
  patientId,
  goalAttainment: null,
  workAbility: null,
  returnToWorkDate: null,
  followUpRecommended: false,
  summary: '',
  updatedBy: null,
  updatedAt: null,
});
/** Body of PUT /patients/{id}/evaluation-form. */
export const EvaluationFormUpdateSchema = v.object({
  goalAttainment: v.nullable(intRange(1, 5)),
  workAbility: v.nullable(v.picklist(['able', 'limited', 'unable', 'not-applicable'])),
  returnToWorkDate: v.nullable(DateSchema),
  followUpRecommended: v.boolean(),
  summary: v.pipe(v.string(), v.maxLength(10000)),
});
export type EvaluationFormUpdate = v.InferInput<typeof EvaluationFormUpdateSchema>;

import * as v from 'valibot';
import { DateSchema, IdSchema, intRange } from './common.ts';

/**
 * Query of every statistics call (values JSON-encoded like all queries). from/to are inclusive days;
 * to defaults to today, from to 89 days before to (90 days). coachId narrows to patients whose primary
 * coach that is. The period may be at most 731 days.
 */
export const StatisticsQuerySchema = v.pipe(
  v.object({ from: v.optional(DateSchema), to: v.optional(DateSchema), coachId: v.optional(IdSchema) }),
  v.check((q) => !q.from || !q.to || q.from <= q.to, 'from must not be after to'),
);
export type StatisticsQuery = v.InferInput<typeof StatisticsQuerySchema>;

/** patient-detail-statistics also pages (the export walks every row); X-Total-Count has the row count. */
export const DetailStatisticsQuerySchema = v.pipe(
  v.object({
    from: v.optional(DateSchema),
    to: v.optional(DateSchema),
    coachId: v.optional(IdSchema),
    limit: v.optional(intRange(1, 1000)),
    skip: v.optional(intRange(0, Number.MAX_SAFE_INTEGER)),
    /** Sort: one of the row fields plus ASC|DESC, default "lastName ASC". */
    order: v.optional(v.string()),
  }),
  v.check((q) => !q.from || !q.to || q.from <= q.to, 'from must not be after to'),
);
export type DetailStatisticsQuery = v.InferInput<typeof DetailStatisticsQuerySchema>;

/**
 * GET /statistics/patient-statistics: patients by aftercare status on day `to`
 * (planned: start after to; active: start <= to <= end; completed: end before to), plus flows in the period.
 */
export const PatientStatisticsSchema = v.object({
  from: v.string(),
  to: v.string(),
  total: v.number(),
  planned: v.number(),
  active: v.number(),
  completed: v.number(),
  /** Aftercare started within [from, to]. */
  startedInPeriod: v.number(),
  /** Aftercare ended within [from, to]. */
  endedInPeriod: v.number(),
  /** Active patients on `to` without synchronised data for more than 7 days. */
  activeWithoutDataFor7Days: v.number(),
});
export type PatientStatistics = v.InferOutput<typeof PatientStatisticsSchema>;

export const AftercareStatusSchema = v.picklist(['planned', 'active', 'completed']);
export type AftercareStatus = v.InferOutput<typeof AftercareStatusSchema>;

/**
 * One row of GET /statistics/patient-detail-statistics; counts are within [from, to]. Id, code and name are
 * null unless the caller may open the patient (administrators, the patient's coaches): a health manager sees
 * the other patients only under `rowId`, a pseudonym that no other call accepts.
 */
export const PatientDetailStatisticsRowSchema = v.object({
  /** Stable per patient, the same for every caller; opens nothing. */
  rowId: IdSchema,
  patientId: v.nullable(IdSchema),
  patientCode: v.nullable(v.string()),
  firstName: v.nullable(v.string()),
  lastName: v.nullable(v.string()),
  primaryCoachId: v.nullable(IdSchema),
  /** "Vorname Nachname" of the primary coach; empty when unassigned. */
  primaryCoachName: v.string(),
  aftercareStart: v.string(),
  aftercareEnd: v.string(),
  /** Status on day `to`. */
  status: AftercareStatusSchema,
  /** Days of the aftercare interval that lie within [from, to] (both ends counted). */
  daysInAftercare: v.number(),
  /** Phone-coaching events (sync collection "event", type phone-coaching) within [from, to]. */
  phoneCoachings: v.number(),
  phoneCoachingMinutes: v.number(),
  /** Day-evaluations with a date within [from, to]. */
  dayEvaluations: v.number(),
  lastDataAt: v.nullable(v.string()),
});
export type PatientDetailStatisticsRow = v.InferOutput<typeof PatientDetailStatisticsRowSchema>;
export const PatientDetailStatisticsSchema = v.array(PatientDetailStatisticsRowSchema);

/** GET /statistics/daily-patients-in-aftercare: one entry per day of [from, to], oldest first. */
export const DailyPatientsSchema = v.array(
  v.object({
    date: v.string(),
    /** Patients whose aftercare interval contains this day. */
    count: v.number(),
  }),
);
export type DailyPatients = v.InferOutput<typeof DailyPatientsSchema>;

/** GET /statistics/phone-coachings: one entry per day of [from, to], oldest first, zeros included. */
export const PhoneCoachingsSchema = v.array(
  v.object({
    date: v.string(),
    count: v.number(),
    /** Sum of the calls' durations. */
    minutes: v.number(),
  }),
);
export type PhoneCoachings = v.InferOutput<typeof PhoneCoachingsSchema>;

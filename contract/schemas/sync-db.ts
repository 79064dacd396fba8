import * as v from 'valibot';
import { DateSchema, IdSchema, TimestampSchema, intRange, textField } from './common.ts';

/*
 * The synchronised collections under /patients/{patientId}/sync-db/{collection}: what the patient's app
 * records and the coach reads (and, for plans like events and timeframes, writes). Each record is
 * { id, patientId, date, updatedAt, data } with `data` checked by the collection's schema below.
 */

const note = v.optional(v.pipe(v.string(), v.maxLength(5000)), '');
const scale5 = intRange(1, 5);

/** The patient's daily self-rating (Tagesbewertung), one per day. */
export const DayEvaluationDataSchema = v.object({
  date: DateSchema,
  /** 1 = very bad to 5 = very good. */
  mood: scale5,
  /** Sleep quality, 1 = very bad to 5 = very good. */
  sleep: scale5,
  /** Felt stress, 1 = none to 5 = very high. */
  stress: scale5,
  /** Pain, 0 = none to 10 = worst imaginable (NRS); null when not asked. */
  pain: v.nullish(intRange(0, 10), null),
  notes: note,
});

/** Daily activity figures from the phone or a lent tracker (Tageswerte). */
export const DayStatsDataSchema = v.object({
  date: DateSchema,
  steps: intRange(0, 200_000),
  activeMinutes: intRange(0, 1440),
  /** Minutes asleep the night before; null when the device does not measure sleep. */
  sleepMinutes: v.nullish(intRange(0, 1440), null),
  restingHeartRate: v.nullish(intRange(20, 250), null),
});

export const EventTypeSchema = v.picklist(['phone-coaching', 'video-coaching', 'appointment', 'exercise', 'reminder', 'other']);
/**
 * Something that happened or is planned. Phone coachings are events of type "phone-coaching" with
 * done = true; the statistics count those.
 */
export const EventDataSchema = v.object({
  type: EventTypeSchema,
  title: textField(200),
  start: TimestampSchema,
  durationMinutes: intRange(0, 1440),
  /** Took place (true) or only planned (false). */
  done: v.optional(v.boolean(), false),
  /** Coach who held it (coaching types). */
  coachId: v.nullish(IdSchema, null),
  /** The event-template it was made from. */
  templateId: v.nullish(IdSchema, null),
  notes: note,
  /**
   * What the event records, for readers that show it in their own language (e.g. "call-reached",
   * "call-not-reached"); title stays the text for readers that know no kinds. Absent on older records.
   */
  kind: v.optional(v.pipe(v.string(), v.regex(/^[a-z][a-z0-9-]{0,39}$/))),
});

/** A reusable event plan, e.g. "Spaziergang 30 Minuten, täglich". */
export const EventTemplateDataSchema = v.object({
  type: EventTypeSchema,
  title: textField(200),
  durationMinutes: intRange(0, 1440),
  recurrence: v.picklist(['none', 'daily', 'weekly']),
  /** Weekdays 1 = Monday to 7 = Sunday for weekly recurrence. */
  weekdays: v.optional(v.array(intRange(1, 7)), []),
});

/** A form the app shows (e.g. an emergency plan or a weekly review), with the patient's entries. */
export const FormDataSchema = v.object({
  title: textField(200),
  fields: v.pipe(
    v.array(v.object({ key: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,40}$/)), label: textField(500), value: v.pipe(v.string(), v.maxLength(5000)) })),
    v.maxLength(100),
  ),
});

/** App-internal state kept for backup (last screen, onboarding done, ...); opaque to the portal. */
export const InternalDataSchema = v.record(v.string(), v.unknown());

/** A life area the patient works on (Lebensbereich: Arbeit, Familie, Gesundheit, Freizeit). */
export const LifeSectionDataSchema = v.object({
  name: textField(100),
  /** The patient's goal in this area, in their words. */
  goal: v.optional(v.pipe(v.string(), v.maxLength(2000)), ''),
  /** How important it is now, 1 to 5. */
  priority: scale5,
  /** Current satisfaction, 1 to 5. */
  satisfaction: scale5,
});

/** The app's settings as the patient chose them. */
export const SettingsDataSchema = v.object({
  /** Daily reminder for the day-evaluation, "HH:MM", null when off. */
  reminderTime: v.nullish(v.pipe(v.string(), v.regex(/^([01]\d|2[0-3]):[0-5]\d$/)), null),
  language: v.optional(v.picklist(['de', 'en', 'fr']), 'de'),
  notificationsEnabled: v.optional(v.boolean(), true),
  /** Share activity figures (day-stats) with the coach. */
  shareDayStats: v.optional(v.boolean(), true),
});

/** A survey assigned to the patient. */
export const SurveyAssignmentDataSchema = v.object({
  /** Id of /surveys. */
  surveyId: IdSchema,
  assignedAt: TimestampSchema,
  dueDate: v.nullish(DateSchema, null),
  status: v.picklist(['open', 'done', 'skipped']),
});

/** The patient's answers to a survey. value: number for scale, string for text and choice. */
export const SurveyResultDataSchema = v.object({
  surveyId: IdSchema,
  completedAt: TimestampSchema,
  answers: v.pipe(v.array(v.object({ questionId: IdSchema, value: v.union([v.number(), v.pipe(v.string(), v.maxLength(5000))]) })), v.maxLength(200)),
});

/** A period with a goal (Zeitraum), e.g. the first four weeks back at work. */
export const TimeframeDataSchema = v.pipe(
  v.object({ title: textField(200), start: DateSchema, end: DateSchema, goal: v.optional(v.pipe(v.string(), v.maxLength(2000)), '') }),
  v.check((t) => t.end >= t.start, 'end must not be before start'),
);

/** The patient's look back on a timeframe. */
export const TimeframeEvaluationDataSchema = v.object({
  timeframeId: IdSchema,
  date: DateSchema,
  /** How well the goal was reached, 1 to 5. */
  rating: scale5,
  notes: note,
});

/** The 12 collections and the schema of their `data`. */
export const SyncCollectionDataSchemas = {
  'day-evaluation': DayEvaluationDataSchema,
  'day-stats': DayStatsDataSchema,
  event: EventDataSchema,
  'event-template': EventTemplateDataSchema,
  form: FormDataSchema,
  internal: InternalDataSchema,
  'life-section': LifeSectionDataSchema,
  settings: SettingsDataSchema,
  survey: SurveyAssignmentDataSchema,
  'survey-result': SurveyResultDataSchema,
  timeframe: TimeframeDataSchema,
  'timeframe-evaluation': TimeframeEvaluationDataSchema,
} as const;
export type SyncCollection = keyof typeof SyncCollectionDataSchemas;
export const SYNC_COLLECTIONS = Object.keys(SyncCollectionDataSchemas) as SyncCollection[];
export const SyncCollectionSchema = v.picklist(SYNC_COLLECTIONS);
export type SyncData<C extends SyncCollection> = v.InferOutput<(typeof SyncCollectionDataSchemas)[C]>;

// The fields are described once, at SyncRecordSchema below (the reference renders that one).
function recordOf<C extends SyncCollection>(collection: C) {
  return v.object({ id: IdSchema, patientId: IdSchema, date: v.nullable(v.string()), updatedAt: v.string(), data: SyncCollectionDataSchemas[collection] });
}
type RecordSchemas = { [C in SyncCollection]: ReturnType<typeof recordOf<C>> };
/** The record schema of each collection, made once so every caller (and every derived reading) shares it. */
export const SyncRecordSchemas = Object.fromEntries(SYNC_COLLECTIONS.map((c) => [c, recordOf(c)])) as RecordSchemas;

/** A stored record of one collection. */
export function syncRecordSchema<C extends SyncCollection>(collection: C): RecordSchemas[C] {
  return SyncRecordSchemas[collection];
}
export type SyncRecord<C extends SyncCollection> = { id: string; patientId: string; date: string | null; updatedAt: string; data: SyncData<C> };

/** Body of PUT /patients/{patientId}/sync-db/{collection}: creates or replaces the record with this id. */
export function syncUpsertSchema<C extends SyncCollection>(collection: C) {
  return v.object({ id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.:-]{1,100}$/)), data: SyncCollectionDataSchemas[collection] });
}
export type SyncUpsert<C extends SyncCollection> = { id: string; data: v.InferInput<(typeof SyncCollectionDataSchemas)[C]> };

/** The record envelope of every collection; `data` has the shape of the collection (SyncCollectionDataSchemas). */
export const SyncRecordSchema = v.object({
  id: IdSchema,
  patientId: IdSchema,
  /** The day the record belongs to (data.date, the day of data.start for events, ...); null when it has none. */
  date: v.nullable(v.string()),
  /** Set by the server at every upsert. */
  updatedAt: v.string(),
  /** The collection's data shape, e.g. DayEvaluationData for day-evaluation. */
  data: v.record(v.string(), v.unknown()),
});

/** Body of PUT /patients/{patientId}/sync-db/{collection}; `data` is checked against the collection's shape. */
export const SyncUpsertSchema = v.object({
  /** Chosen by the writer (the app uses its own ids, e.g. "de-2026-06-01"); letters, digits and _.:- only. */
  id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.:-]{1,100}$/)),
  /** The collection's data shape. */
  data: v.record(v.string(), v.unknown()),
});

/** Fields that `where` and `order` of a sync-db list may use. */
export const SYNC_FILTER_FIELDS = ['id', 'date', 'updatedAt'] as const;

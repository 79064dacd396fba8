import * as v from 'valibot';
import { IdSchema } from '../../contract/schemas/common.ts';
import { LoginTokenSchema, MeSchema } from '../../contract/schemas/auth.ts';
import { CoachLockedSchema, CoachSchema } from '../../contract/schemas/coaches.ts';
import { CommentSchema } from '../../contract/schemas/comments.ts';
import { CostRateSchema } from '../../contract/schemas/cost-rates.ts';
import { DeviceSchema } from '../../contract/schemas/devices.ts';
import { DiagnosisSchema } from '../../contract/schemas/diagnosis.ts';
import { ExternalCommentSchema } from '../../contract/schemas/external-comments.ts';
import { NewsItemSchema } from '../../contract/schemas/news.ts';
import { AppointmentSchema, PatientSchema, PrimaryCoachSchema } from '../../contract/schemas/patients.ts';
import { PatientAccessSchema, PatientTokenSchema } from '../../contract/schemas/patient-tokens.ts';
import { PukSchema } from '../../contract/schemas/puks.ts';
import { ReplicationEndpointSchema } from '../../contract/schemas/replication-endpoints.ts';
import { DailyPatientsSchema, PatientDetailStatisticsRowSchema, PatientStatisticsSchema, PhoneCoachingsSchema } from '../../contract/schemas/statistics.ts';
import { SurveyQuestionSchema, SurveySchema } from '../../contract/schemas/surveys.ts';
import { SyncRecordSchema, SyncRecordSchemas } from '../../contract/schemas/sync-db.ts';
import { SyncedPatientSchema } from '../../contract/schemas/synced-patients.ts';
import { SystemSettingsSchema, TrainingMaterialSchema } from '../../contract/schemas/system.ts';
import { AppVersionSchema, AssetSchema } from '../../contract/schemas/app-settings.ts';

/*
 * How the client reads answers. The schemas in ./schemas/ are the strict contract the built-in upstream
 * checks its own answers against; a customer's /v2 API only has to give what docs/product.md shows or what a screen
 * cannot work without. The reading schema of an answer is derived here from its strict schema, in one place:
 *   - ids may be numbers or strings and become strings (once, here at the boundary);
 *   - a field is required only when it is essential (REQUIRED below, and every object's `id`); any other
 *     field that is missing, null where null is not allowed, or of the wrong type reads as its default;
 *   - unknown fields are dropped; format checks (lengths, patterns, ranges) are the writer's business and
 *     are not repeated when reading.
 */

/** Fields a screen cannot work without, per object schema (besides `id`, which every object needs). */
const REQUIRED = new Map<unknown, readonly string[]>([
  // docs/product.md#entities/4: the session check and the guards decide on these four flags.
  [MeSchema, ['email', 'isUserLocked', 'isAdmin', 'isSuperAdmin', 'isHealthManager']],
  // docs/product.md#states: "if the response has an id, the token is stored".
  [LoginTokenSchema, ['id']],
  // docs/product.md#entities: id, title, read.
  [NewsItemSchema, ['title', 'read']],
  // docs/product.md#calls: the answer includes both.
  [SystemSettingsSchema, ['enable_creating_new_patients', 'instance_name']],
  [CoachLockedSchema, ['locked']],
  [CoachSchema, ['email']],
  [PatientSchema, []],
  [AppointmentSchema, ['startsAt']],
  [PrimaryCoachSchema.wrapped, []],
  // An access code or recovery key without its code is nothing to hand over.
  [PatientTokenSchema, ['code']],
  [PatientAccessSchema, ['patient', 'token']],
  [PukSchema, ['code']],
  // A comment is shown under its patient with its text.
  [CommentSchema, ['patientId', 'text']],
  [ExternalCommentSchema, ['patientId', 'text']],
  [CostRateSchema, ['name']],
  [DeviceSchema, ['name']],
  [DiagnosisSchema, ['code']],
  // docs/product.md#entities: name, protocol, host, port (host and port may be left out: the current host).
  [ReplicationEndpointSchema, ['name', 'protocol']],
  [SurveySchema, ['title']],
  [SurveyQuestionSchema, ['text', 'type']],
  [SyncRecordSchema, ['data']],
  ...Object.values(SyncRecordSchemas).map((schema) => [schema, ['data']] as const),
  [SyncedPatientSchema, ['patientId']],
  [TrainingMaterialSchema, ['title', 'assetId']],
  [AssetSchema, []],
  [AppVersionSchema, ['version']],
  // Our upstream names a row by rowId (a pseudonym where the caller may not open the patient); another API may send
  // only patientId. Neither is needed to show the row.
  [PatientDetailStatisticsRowSchema, []],
  [DailyPatientsSchema.item, ['date', 'count']],
  [PhoneCoachingsSchema.item, ['date', 'count']],
]);

/**
 * Objects of figures (counts, sums): a number the answer does not give reads as NaN, "not given", never as 0 —
 * a missing count shown as 0 would read as "no patients". Screens show NaN as unavailable (components/Figure.tsx),
 * and sums or comparisons with it stay unavailable too.
 */
const FIGURES = new Set<unknown>([PatientStatisticsSchema, PatientDetailStatisticsRowSchema]);
const notGiven = () => Number.NaN;
/** True for a number field of a figures object: missing, it reads as NaN ("–", unavailable) rather than 0. */
export const isFigure = (object: unknown, entry: { type: string }): boolean => FIGURES.has(object) && entry.type === 'number';

type Schema = v.GenericSchema & {
  type: string;
  pipe?: readonly unknown[];
  entries?: Record<string, Schema>;
  wrapped?: Schema;
  item?: Schema;
  options?: readonly unknown[];
  key?: Schema;
  value?: Schema;
  default?: unknown;
};

/** The schema under a pipe: `v.pipe(v.string(), v.minLength(1))` is read as `v.string()`. */
const rootOf = (schema: Schema): Schema => (schema.pipe ? (schema.pipe[0] as Schema) : schema);

/** Required fields of an object schema: the listed ones, plus `id` whenever the object has one. */
export function requiredFields(object: Schema): string[] {
  const listed = REQUIRED.get(object) ?? [];
  return [...new Set([...('id' in (object.entries ?? {}) ? ['id'] : []), ...listed])];
}

/** The default a missing or unusable optional field reads as, or `undefined` when it has none. */
export function defaultOf(schema: Schema): (() => unknown) | undefined {
  if ((schema.type === 'optional' || schema.type === 'nullish') && schema.default !== undefined) {
    const value = v.getDefault(schema as never);
    return () => structuredClone(value);
  }
  if (schema.type === 'nullable' || schema.type === 'nullish') return () => null;
  if (schema.type === 'optional') return () => undefined;
  const root = rootOf(schema);
  switch (root.type) {
    case 'string':
      return () => '';
    case 'boolean':
      return () => false;
    case 'number':
      return () => 0;
    case 'array':
      return () => [];
    case 'record':
      return () => ({});
    case 'picklist': {
      const options = root.options as string[];
      const value = options.find((o) => o === 'unknown' || o === 'other') ?? options[0];
      return () => value;
    }
    case 'object':
    case 'loose_object':
    case 'strict_object': {
      if (requiredFields(root).length > 0) return undefined;
      const entries = Object.entries(root.entries ?? {}).map(([key, entry]) => [key, defaultOf(entry)] as const);
      if (entries.some(([, make]) => make === undefined)) return undefined;
      return () => Object.fromEntries(entries.map(([key, make]) => [key, make!()]));
    }
    default:
      return undefined;
  }
}

/** An id as a customer's API may send it: a string, or a whole number (LoopBack's default ids). */
const ReadIdSchema = v.pipe(
  v.union([v.string(), v.pipe(v.number(), v.integer())]),
  v.transform((id) => String(id)),
  v.minLength(1),
);
/** Text fields accept numbers too (a code or phone number stored as a number) and read them as text. */
const ReadStringSchema = v.pipe(
  v.union([v.string(), v.number()]),
  v.transform((value) => String(value)),
);

type Mode = 'lenient' | 'complete';

function derive(schema: Schema, mode: Mode): v.GenericSchema {
  const read = deriveType(schema, mode);
  // A pipe's checks are the writer's business, but its transformations shape what the screen gets: keep them.
  const transformations = (schema.pipe ?? []).slice(1).filter((action) => (action as { kind?: string }).kind === 'transformation');
  return transformations.length ? v.pipe(read, ...(transformations as [v.GenericPipeAction])) : read;
}

function deriveType(schema: Schema, mode: Mode): v.GenericSchema {
  if (schema === IdSchema) return ReadIdSchema;
  switch (schema.type) {
    case 'optional':
      return v.optional(derive(schema.wrapped!, mode), schema.default as never);
    case 'nullable':
      return v.nullable(derive(schema.wrapped!, mode), schema.default as never);
    case 'nullish':
      return v.nullish(derive(schema.wrapped!, mode), schema.default as never);
  }
  const root = rootOf(schema);
  switch (root.type) {
    case 'string':
      return ReadStringSchema;
    case 'object':
    case 'loose_object':
    case 'strict_object':
      return deriveObject(root, mode);
    case 'array':
      return v.array(derive(root.item!, mode));
    case 'record':
      return v.record(v.string(), derive(root.value!, mode));
    case 'union':
      return v.union((root.options as Schema[]).map((option) => derive(option, mode)));
    default:
      // number, boolean, picklist, literal, unknown ...: the type itself, without the writer's format checks.
      return root;
  }
}

function deriveObject(object: Schema, mode: Mode): v.GenericSchema {
  const required = new Set(requiredFields(object));
  const entries: Record<string, v.GenericSchema> = {};
  for (const [key, entry] of Object.entries(object.entries ?? {})) {
    const read = derive(entry, mode);
    const figure = isFigure(object, entry);
    const fallback = mode === 'lenient' && !required.has(key) ? (figure ? notGiven : defaultOf(entry)) : undefined;
    entries[key] = fallback ? v.fallback(read, fallback as never) : read;
  }
  return v.object(entries);
}

const cache = { lenient: new WeakMap<object, v.GenericSchema>(), complete: new WeakMap<object, v.GenericSchema>() };

/**
 * The schema an answer is read with: `lenient` (what the client does) requires only the essential fields;
 * `complete` requires every field of the strict schema but still reads ids and numbers as the client does,
 * so its issues name the fields that were read with a default (used by scripts/check-upstream.ts).
 */
export function readingSchema<S extends v.GenericSchema>(schema: S, mode: Mode = 'lenient'): v.GenericSchema<unknown, v.InferOutput<S>> {
  let derived = cache[mode].get(schema);
  if (!derived) {
    derived = derive(schema as unknown as Schema, mode);
    cache[mode].set(schema, derived);
  }
  return derived as v.GenericSchema<unknown, v.InferOutput<S>>;
}

/** Where an answer did not fit, as field paths with list positions collapsed ("[].id"); never the values. */
export function issueFields(issues: readonly v.BaseIssue<unknown>[]): string[] {
  const fields = issues.map((issue) => {
    const path = (issue.path ?? []).map((item) => (typeof item.key === 'number' ? '[]' : String(item.key)));
    return path.join('.').replace(/\.\[\]/g, '[]') || '(the whole answer)';
  });
  return [...new Set(fields)];
}

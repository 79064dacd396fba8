import * as v from 'valibot';
import { IdSchema, intRange, textField } from './common.ts';

export const SurveyQuestionTypeSchema = v.picklist(['scale', 'text', 'choice']);

/** One question. scale: a number from min to max; choice: one of options; text: free answer. */
export const SurveyQuestionSchema = v.object({
  /** Stable within the survey, so results stay readable after the wording changes. */
  id: IdSchema,
  text: v.string(),
  type: SurveyQuestionTypeSchema,
  /** choice only: the answers to pick from. */
  options: v.optional(v.array(v.string())),
  /** scale only: range and the words at both ends, e.g. 1 "gar nicht" to 5 "sehr". */
  min: v.optional(v.number()),
  max: v.optional(v.number()),
  minLabel: v.optional(v.string()),
  maxLabel: v.optional(v.string()),
});
export type SurveyQuestion = v.InferOutput<typeof SurveyQuestionSchema>;

/** A questionnaire patients answer in the app (e.g. PHQ-9-like mood check, satisfaction survey). */
export const SurveySchema = v.object({
  id: IdSchema,
  title: v.string(),
  description: v.string(),
  questions: v.array(SurveyQuestionSchema),
  /** Inactive surveys are kept for old results but no longer assigned. */
  active: v.boolean(),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type Survey = v.InferOutput<typeof SurveySchema>;
export const SurveyListSchema = v.array(SurveySchema);

const QuestionInputSchema = v.pipe(
  v.object({
    id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,40}$/)),
    text: textField(1000),
    type: SurveyQuestionTypeSchema,
    options: v.optional(v.pipe(v.array(textField(200)), v.minLength(2), v.maxLength(20))),
    min: v.optional(intRange(0, 100)),
    max: v.optional(intRange(1, 100)),
    minLabel: v.optional(v.pipe(v.string(), v.maxLength(100))),
    maxLabel: v.optional(v.pipe(v.string(), v.maxLength(100))),
  }),
  v.check((q) => q.type !== 'choice' || (q.options?.length ?? 0) >= 2, 'A choice question needs at least two options'),
  v.check((q) => q.type !== 'scale' || (q.min ?? 1) < (q.max ?? 5), 'A scale needs min below max'),
);
const questions = v.pipe(
  v.array(QuestionInputSchema),
  v.minLength(1),
  v.maxLength(100),
  v.check((qs) => new Set(qs.map((q) => q.id)).size === qs.length, 'Question ids must be unique'),
);
export const SurveyCreateSchema = v.object({
  title: textField(200),
  description: v.optional(v.pipe(v.string(), v.maxLength(5000)), ''),
  questions,
  active: v.optional(v.boolean(), true),
});
export type SurveyCreate = v.InferInput<typeof SurveyCreateSchema>;
export const SurveyUpdateSchema = SurveyCreateSchema;
export const SurveyPatchSchema = v.partial(
  v.object({ title: textField(200), description: v.pipe(v.string(), v.maxLength(5000)), questions, active: v.boolean() }),
);

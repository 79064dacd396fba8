import * as v from 'valibot';

/** All ids in the /v2 API are strings (docs/contract.md#ids). */
export const IdSchema = v.pipe(v.string(), v.minLength(1), v.maxLength(100));

/** A calendar day, `YYYY-MM-DD` (birth dates, aftercare intervals, statistic days). */
export const DateSchema = v.pipe(v.string(), v.isoDate());

/** A point in time, ISO 8601 with zone (`2026-11-22T08:30:00.000Z`). Answers are never re-checked for format. */
export const TimestampSchema = v.pipe(v.string(), v.isoTimestamp());

/** Non-empty trimmed text with an upper bound, for names and titles. */
export const textField = (max: number) => v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(max));

/** Whole number in [min, max]. */
export const intRange = (min: number, max: number) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));

/**
 * The `filter` query value of every list call (docs/contract.md#lists). `where` is checked field by field by the
 * server, which answers 400 for fields the resource does not have.
 */
export const ListFilterSchema = v.strictObject({
  where: v.optional(v.record(v.string(), v.unknown())),
  order: v.optional(v.union([v.string(), v.array(v.string())])),
  limit: v.optional(intRange(0, 1000)),
  skip: v.optional(intRange(0, Number.MAX_SAFE_INTEGER)),
});
export type ListFilter = v.InferOutput<typeof ListFilterSchema>;

/** Answer of calls that confirm a change and return nothing else worth a schema. */
export const CountSchema = v.object({ count: v.number() });

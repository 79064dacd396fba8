import * as v from 'valibot';
import { validationFailed, type ErrorDetail } from './errors.ts';
import { normalizeTimestamps, TimestampOutOfRange } from './timestamps.ts';

/** Valibot issues as docs/contract.md#errors details: dotted field path and message. */
export function issuesToDetails(issues: readonly v.BaseIssue<unknown>[]): ErrorDetail[] {
  return issues.map((issue) => ({ path: v.getDotPath(issue) ?? '', message: issue.message }));
}

/**
 * Checks a request body against its schema and returns the parsed output, timestamps in their stored form. A body that is not an
 * object at all is a 400; an object with wrong or missing fields is a 422 naming each field.
 */
const OBJECT_SCHEMAS = new Set(['object', 'strict_object', 'loose_object', 'object_with_rest']);

export function validate<S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> {
  // valibot's object() takes an array as an object with no known keys (a PATCH of `[]` would pass as `{}`).
  if (Array.isArray(body) && OBJECT_SCHEMAS.has((schema as { type?: string }).type ?? '')) {
    throw validationFailed([{ path: '', message: 'Expected an object' }], 400);
  }
  const result = v.safeParse(schema, body);
  if (result.success) {
    // Timestamps are stored in one form (see timestamps.ts); a day the pattern let through but the calendar lacks is a 422.
    try {
      return normalizeTimestamps(schema as never, result.output) as v.InferOutput<S>;
    } catch (error) {
      if (error instanceof TimestampOutOfRange) throw validationFailed([{ path: error.path, message: 'Not a real point in time' }]);
      throw error;
    }
  }
  const notAnObject = body === null || typeof body !== 'object' || Array.isArray(body);
  throw validationFailed(issuesToDetails(result.issues), notAnObject ? 400 : 422);
}

import * as v from 'valibot';
import { ApiError } from './http.ts';
import { readingSchema } from './reading.ts';

/*
 * Optimistic concurrency on the client side. A write of a record the upstream versioned (an ETag on its answer,
 * or an `updatedAt` in the record) sends that version as If-Match; the upstream then refuses with 412 instead of
 * overwriting a change the person never saw, and sends the record as it is now.
 */

/** The If-Match value for a record: the ETag its last answer carried, else its updatedAt quoted; null when neither. */
export function versionTag(record: { updatedAt?: string | null } | null | undefined, etag?: string | null): string | null {
  if (etag) return etag;
  const updatedAt = record?.updatedAt;
  return typeof updatedAt === 'string' && updatedAt ? `"${updatedAt}"` : null;
}

export const isConflict = (error: unknown): error is ApiError => error instanceof ApiError && error.status === 412;

/** A 412's current record checked with the record's schema, and its version; null when the answer holds none that fits. */
export function conflictOf<S extends v.GenericSchema>(error: unknown, schema: S): { current: v.InferOutput<S>; tag: string | null } | null {
  if (!isConflict(error)) return null;
  // Read like every other answer (reading.ts): a customer's API may send numeric ids or leave optional fields out.
  const parsed = v.safeParse(readingSchema(schema), error.current);
  if (!parsed.success) return null;
  const current = parsed.output as v.InferOutput<S>;
  return { current, tag: versionTag(current as { updatedAt?: string | null }, error.etag) };
}

import * as v from 'valibot';
import type { Upstream } from '../context.ts';
import type { Database } from '../db/index.ts';
import { validationFailed, type ErrorDetail } from '../http/errors.ts';
import type { ResourceDefinition } from './definition.ts';

/** PostgreSQL's `integer`, the type of every number column. */
const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;

/**
 * The values about to be stored, checked against what the database can hold: a number column takes only
 * whole numbers within PostgreSQL's integer (a schema that forgot a bound would otherwise fail the query).
 */
export function checkColumns(def: ResourceDefinition, values: Record<string, unknown>): void {
  const details: ErrorDetail[] = [];
  for (const [field, value] of Object.entries(values)) {
    if (!Object.hasOwn(def.fields, field) || def.fields[field] !== 'number' || value === null || value === undefined) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < INT_MIN || value > INT_MAX) {
      details.push({ path: field, message: `Expected a whole number from ${INT_MIN} to ${INT_MAX}` });
    }
  }
  if (details.length) throw validationFailed(details);
}

export function checkOutput(def: ResourceDefinition, item: unknown): unknown {
  const result = v.safeParse(def.outputSchema, item);
  // An answer that breaks its own schema is a bug here, not the caller's fault: 500, logged by the handler.
  if (!result.success) throw new Error(`Answer of ${def.path} does not match its schema: ${v.summarize(result.issues)}`);
  return result.output;
}

/** 422 naming a field whose id points nowhere. */
export async function assertReference(ctx: Upstream, table: keyof Database & string, id: string | null | undefined, path: string, message = 'Unknown id') {
  if (id === null || id === undefined) return;
  const found = await ctx.db
    .selectFrom(table as never)
    .select('id' as never)
    .where('id' as never, '=', id as never)
    .executeTakeFirst();
  if (!found) throw validationFailed([{ path, message }]);
}

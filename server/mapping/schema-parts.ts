import type * as v from 'valibot';

/*
 * Reading the contract's valibot schemas as data: which object a schema holds, its fields, its fixed values. Only the
 * schema kinds the contract uses are understood; anything else counts as opaque (no fields, nothing to rename).
 */

type Schema = v.GenericSchema & { wrapped?: Schema; entries?: Record<string, Schema>; item?: Schema; options?: unknown[] };

const WRAPPERS = new Set(['optional', 'nullable', 'nullish', 'exact_optional', 'undefinedable', 'non_optional', 'non_nullable', 'non_nullish']);
const OBJECTS = new Set(['object', 'strict_object', 'loose_object', 'object_with_rest']);

/** The schema under optional/nullable wrappers (a pipe keeps the kind of the schema it starts with). */
export function unwrap(schema: v.GenericSchema): v.GenericSchema {
  let current = schema as Schema;
  while (WRAPPERS.has(current.type) && current.wrapped) current = current.wrapped;
  return current;
}

/** The fields of an object schema (through wrappers), or null for anything else. */
export function entriesOf(schema: v.GenericSchema): Record<string, v.GenericSchema> | null {
  const inner = unwrap(schema) as Schema;
  return OBJECTS.has(inner.type) && inner.entries ? inner.entries : null;
}

/** The item schema of an array schema (through wrappers), or null. */
export function itemOf(schema: v.GenericSchema): v.GenericSchema | null {
  const inner = unwrap(schema) as Schema;
  return inner.type === 'array' && inner.item ? inner.item : null;
}

/** The fixed values of a picklist field (through wrappers), or null. */
export function picklistOf(schema: v.GenericSchema): string[] | null {
  const inner = unwrap(schema) as Schema;
  return inner.type === 'picklist' && Array.isArray(inner.options) ? inner.options.map(String) : null;
}

/** The JSON type a field's values have: 'string', 'number', 'boolean', 'array', 'object' or 'unknown'. */
export function jsonTypeOf(schema: v.GenericSchema): string {
  const inner = unwrap(schema) as Schema;
  if (inner.type === 'picklist') return 'string';
  if (inner.type === 'string' || inner.type === 'number' || inner.type === 'boolean' || inner.type === 'array') return inner.type;
  if (OBJECTS.has(inner.type) || inner.type === 'record') return 'object';
  return 'unknown';
}

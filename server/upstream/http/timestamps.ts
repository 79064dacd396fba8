/*
 * Every timestamp a schema accepts (valibot's isoTimestamp: "T" or a space, 0 to 9 decimals, "Z", "+01",
 * "+0100" or "+01:00") is stored as one form: UTC, milliseconds, "Z" (2026-11-20T09:00:00.000Z). Stored
 * text is compared and sorted as text, so mixed forms would order wrongly, and Date cannot parse all of them
 * ("+01" is an Invalid Date: the RangeError of a synced event). The instant never changes; only its notation
 * does (and digits below a millisecond are dropped).
 */

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:(Z)| ?([+-])(\d{2})(?::?(\d{2}))?)$/;

/** The canonical form, or null when the text is no timestamp or names a day that does not exist (31 April). */
export function canonicalTimestamp(text: string): string | null {
  const m = TIMESTAMP.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, fraction = '', , sign, oh, om = '00'] = m;
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  if (date.getUTCFullYear() !== Number(y) || date.getUTCMonth() !== Number(mo) - 1 || date.getUTCDate() !== Number(d)) return null;
  date.setUTCHours(Number(h), Number(mi), Number(s), Number(fraction.padEnd(3, '0').slice(0, 3)));
  const offsetMinutes = sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) : 0;
  const instant = date.getTime() - offsetMinutes * 60_000;
  const result = new Date(instant);
  // Outside years 0000-9999 the text form changes shape (±YYYYYY) and would no longer sort.
  if (result.getUTCFullYear() < 0 || result.getUTCFullYear() > 9999) return null;
  return result.toISOString();
}

interface SchemaNode {
  type?: string;
  pipe?: readonly { type?: string; kind?: string }[];
  entries?: Record<string, SchemaNode>;
  item?: SchemaNode;
  wrapped?: SchemaNode;
  options?: readonly SchemaNode[];
  value?: SchemaNode;
  key?: string;
}

const WRAPPERS = new Set(['optional', 'nullable', 'nullish', 'non_nullable', 'non_optional', 'non_nullish', 'exact_optional', 'undefinedable']);
const isTimestampSchema = (schema: SchemaNode) => schema.pipe?.some((action) => action.type === 'iso_timestamp') ?? false;

export class TimestampOutOfRange extends Error {
  readonly path: string;
  constructor(path: string) {
    super('Not a real point in time');
    this.path = path;
  }
}

/**
 * Walks a parsed value along its valibot schema and rewrites every field the schema checks with
 * isoTimestamp to the canonical form. Throws TimestampOutOfRange (the caller's 422) for a day that does not
 * exist, which the schema's pattern lets through.
 */
export function normalizeTimestamps(schema: SchemaNode, value: unknown, path = ''): unknown {
  if (value === null || value === undefined) return value;
  if (WRAPPERS.has(schema.type ?? '')) return schema.wrapped ? normalizeTimestamps(schema.wrapped, value, path) : value;
  if (typeof value === 'string') {
    if (!isTimestampSchema(schema)) return value;
    const canonical = canonicalTimestamp(value);
    if (canonical === null) throw new TimestampOutOfRange(path);
    return canonical;
  }
  const at = (key: string | number) => (path ? `${path}.${key}` : String(key));
  switch (schema.type) {
    case 'object':
    case 'strict_object':
    case 'loose_object':
    case 'object_with_rest': {
      if (typeof value !== 'object' || Array.isArray(value)) return value;
      const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      for (const [key, entry] of Object.entries(schema.entries ?? {})) {
        if (Object.hasOwn(out, key)) out[key] = normalizeTimestamps(entry, out[key], at(key));
      }
      return out;
    }
    case 'array':
      return Array.isArray(value) && schema.item ? value.map((item, i) => normalizeTimestamps(schema.item!, item, at(i))) : value;
    case 'record':
      if (typeof value !== 'object' || Array.isArray(value) || !schema.value) return value;
      return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, item]) => [k, normalizeTimestamps(schema.value!, item, at(k))]));
    case 'union':
    case 'variant':
      // Only a timestamp option can hold a timestamp string; objects keep their own fields' forms.
      for (const option of schema.options ?? []) {
        if (typeof value === 'object') continue;
        if (isTimestampSchema(option)) return normalizeTimestamps(option, value, path);
      }
      return value;
    default:
      return value;
  }
}

import { readdirSync, readFileSync } from 'node:fs';
import type * as v from 'valibot';
import { type JSONSchema7, toJsonSchema } from '@valibot/to-json-schema';
import type { ApiCall } from '../contract/catalog.ts';

/* The shapes of docs/api.md (scripts/api-docs.ts): each valibot schema as a table of its fields, with the comments
 * written beside it in the source, and the row of one call with its shapes linked. */

const schemaDir = new URL('../contract/schemas/', import.meta.url);

export interface Shape {
  name: string;
  file: string;
  schema: v.GenericSchema;
  description: string;
  fields: Map<string, string>;
}

/**
 * `/** text *\/` comments before `export const XSchema` and before its fields, read from the source.
 * Comments on fields of non-exported helper objects (`const patientFields = {...}`) serve as fallback.
 */
export function comments(source: string) {
  const bySchema = new Map<string, { description: string; fields: Map<string, string> }>();
  const helperFields = new Map<string, string>();
  let pending: string | null = null;
  let current: Map<string, string> | null = null;
  const lines = source.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*\/\*\*/.test(line)) {
      let text = line;
      while (!text.includes('*/') && i + 1 < lines.length) text += `\n${lines[++i]}`;
      pending = text
        .replace(/\/\*\*|\*\//g, '')
        .split('\n')
        .map((l) => l.replace(/^\s*\*\s?/, '').trim())
        .filter(Boolean)
        .join(' ');
      continue;
    }
    const exported = /^export (?:const|function) (\w+?)(?:Schema)?\b/.exec(line);
    if (exported) {
      current = new Map();
      bySchema.set(exported[1], { description: pending ?? '', fields: current });
      pending = null;
      continue;
    }
    if (/^(?:const|function) /.test(line)) current = helperFields;
    const field = /^\s+'?([\w-]+)'?\??:/.exec(line);
    if (field && pending && current && !current.has(field[1])) current.set(field[1], pending);
    if (!/^\s*\/\//.test(line)) pending = null;
  }
  return { bySchema, helperFields };
}

export async function loadShapes(): Promise<Map<string, Shape>> {
  const shapes = new Map<string, Shape>();
  const files = readdirSync(schemaDir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .sort();
  for (const file of files) {
    const mod = (await import(new URL(file, schemaDir).href)) as Record<string, unknown>;
    const { bySchema, helperFields } = comments(readFileSync(new URL(file, schemaDir), 'utf8'));
    for (const [exportName, value] of Object.entries(mod)) {
      if (!exportName.endsWith('Schema') || !value || typeof value !== 'object' || !('kind' in value)) continue;
      const name = exportName.slice(0, -'Schema'.length);
      const info = bySchema.get(name);
      const fields = new Map(helperFields);
      for (const [k, text] of info?.fields ?? []) fields.set(k, text);
      shapes.set(name, { name, file, schema: value as v.GenericSchema, description: info?.description ?? '', fields });
    }
  }
  return shapes;
}

export const esc = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function typeOf(s: JSONSchema7): string {
  if (s.anyOf) {
    const parts = (s.anyOf as JSONSchema7[]).map(typeOf);
    return parts.join(' or ');
  }
  if (s.enum) return s.enum.map((e) => JSON.stringify(e)).join(' | ');
  if (s.type === 'array') return `${typeOf((s.items ?? {}) as JSONSchema7)}[]`;
  if (s.type === 'string' && s.format)
    return { date: 'date (YYYY-MM-DD)', 'date-time': 'timestamp (ISO 8601)', email: 'email' }[s.format] ?? `string (${s.format})`;
  if (s.type === 'object' && !s.properties) return s.additionalProperties ? 'object (any keys)' : 'object';
  if (s.type === 'object') return 'object';
  return String(s.type ?? 'any');
}

export function rules(s: JSONSchema7): string[] {
  const out: string[] = [];
  const inner = s.anyOf ? ((s.anyOf as JSONSchema7[]).find((x) => x.type !== 'null') ?? s) : s;
  const item = inner.type === 'array' ? (inner.items as JSONSchema7 | undefined) : undefined;
  if (inner.minLength !== undefined || inner.maxLength !== undefined) out.push(`length ${inner.minLength ?? 0}-${inner.maxLength ?? '∞'}`);
  if (inner.minimum !== undefined || inner.maximum !== undefined)
    out.push(`${inner.type === 'integer' ? 'whole number ' : ''}${inner.minimum ?? '-∞'} to ${inner.maximum ?? '∞'}`);
  else if (inner.type === 'integer') out.push('whole number');
  if (inner.minItems !== undefined || inner.maxItems !== undefined) out.push(`${inner.minItems ?? 0}-${inner.maxItems ?? '∞'} items`);
  if (inner.pattern) out.push(`pattern \`${inner.pattern}\``);
  if (item && item.type !== 'object') out.push(...rules(item).map((r) => `each: ${r}`));
  if (s.default !== undefined) out.push(`default ${JSON.stringify(s.default)}`);
  return out;
}

export type AnySchema = { type: string; entries?: Record<string, AnySchema>; item?: AnySchema; wrapped?: AnySchema };
/** The object schema inside optional/nullable/array wrappers (pipes keep the root's entries). */
export function innerObject(schema: AnySchema | undefined): AnySchema | undefined {
  let s = schema;
  while (s && !s.entries) s = s.wrapped ?? s.item;
  return s;
}

/**
 * Rows `path | type | required | notes`, nested objects flattened as `a.b` and `list[].b`. A nested
 * object that is a named schema (AppointmentSchema inside PatientSchema) brings its own field notes.
 */
export function fieldRows(s: JSONSchema7, valibot: AnySchema | undefined, notes: Map<string, string>, byObject: Map<unknown, Shape>, prefix = ''): string[] {
  const props = s.properties as Record<string, JSONSchema7> | undefined;
  if (!props) return [];
  const required = new Set(s.required ?? []);
  const rows: string[] = [];
  for (const [key, prop] of Object.entries(props)) {
    const path = `${prefix}${key}`;
    const rule = rules(prop);
    const text = [notes.get(key), rule.length ? rule.join(', ') : ''].filter(Boolean).join(' — ');
    rows.push(`| \`${path}\` | ${esc(typeOf(prop))} | ${required.has(key) && prop.default === undefined ? 'yes' : 'no'} | ${esc(text)} |`);
    const inner = prop.anyOf ? ((prop.anyOf as JSONSchema7[]).find((x) => x.type !== 'null') ?? prop) : prop;
    const child = innerObject(valibot?.entries?.[key]);
    const childNotes = (child && byObject.get(child)?.fields) ?? notes;
    if (inner.type === 'object') rows.push(...fieldRows(inner, child, childNotes, byObject, `${path}.`));
    if (inner.type === 'array' && (inner.items as JSONSchema7)?.type === 'object')
      rows.push(...fieldRows(inner.items as JSONSchema7, child, childNotes, byObject, `${path}[].`));
  }
  return rows;
}

export function renderShape(shape: Shape, byObject: Map<unknown, Shape>): string {
  const json = toJsonSchema(shape.schema, { errorMode: 'ignore' }) as JSONSchema7;
  const lines = [`### ${shape.name}`, ''];
  if (shape.description) lines.push(shape.description, '');
  lines.push(`Schema: \`${shape.name}Schema\` in contract/schemas/${shape.file}.`, '');
  let body = json;
  if (json.type === 'array') {
    lines.push(`A JSON array of: ${esc(typeOf(json.items as JSONSchema7))}.`, '');
    body = json.items as JSONSchema7;
  } else if (json.anyOf) {
    lines.push(`${esc(typeOf(json))}.`, '');
    body = (json.anyOf as JSONSchema7[]).find((x) => x.type === 'object') ?? json;
  }
  const rows = fieldRows(body, innerObject(shape.schema as unknown as AnySchema), shape.fields, byObject);
  if (rows.length) lines.push('| Field | Type | Required | Notes |', '|---|---|---|---|', ...rows, '');
  else if (body.type === 'object' && !body.properties) lines.push(body.additionalProperties ? 'Any JSON object.' : 'An empty JSON object `{}`.', '');
  return lines.join('\n');
}

export const shapeRefs = (value: string | undefined) => (value ? [...value.matchAll(/\b([A-Z]\w*?)(?:\[\])?\b/g)].map((m) => m[1]) : []);
export const link = (value: string | undefined, shapes: Map<string, Shape>) =>
  value === undefined ? '' : value.replace(/\b([A-Z]\w*)/g, (name) => (shapes.has(name) ? `[${name}](#${name.toLowerCase()})` : name));

export function callRow(call: ApiCall, shapes: Map<string, Shape>): string {
  const answer = call.answer === 'file' ? 'the file' : call.answer ? link(call.answer, shapes) : '—';
  const status = call.status ?? (call.answer ? 200 : 204);
  return `| ${call.method} | \`${call.path}\` | ${call.permission} | ${link(call.query, shapes) || '—'} | ${link(call.body, shapes) || '—'} | ${status} ${answer} | ${esc(call.summary)} |`;
}

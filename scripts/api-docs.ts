/**
 * Writes docs/api.md from scripts/api-catalog.ts and the valibot schemas in client/api/schemas/, so the
 * reference cannot drift from what client and upstream validate. `--check` only compares and exits 1
 * when docs/api.md is stale (run by the server tests).
 *   npm run docs:api            write docs/api.md
 *   npm run docs:api -- --check  fail when it differs
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type * as v from 'valibot';
import { toJsonSchema, type JSONSchema7 } from '@valibot/to-json-schema';
import { API_FAMILIES, PERMISSIONS, type ApiCall } from './api-catalog.ts';
import { SyncCollectionDataSchemas } from '../client/api/schemas/sync-db.ts';
import { README_PATH, currentReadme, renderUpstreamGuide, withGuide } from './upstream-guide.ts';

const root = new URL('../', import.meta.url);
const schemaDir = new URL('client/api/schemas/', root);
export const DOCS_PATH = fileURLToPath(new URL('docs/api.md', root));

interface Shape { name: string; file: string; schema: v.GenericSchema; description: string; fields: Map<string, string> }

/**
 * `/** text *\/` comments before `export const XSchema` and before its fields, read from the source.
 * Comments on fields of non-exported helper objects (`const patientFields = {...}`) serve as fallback.
 */
function comments(source: string) {
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
      pending = text.replace(/\/\*\*|\*\//g, '').split('\n').map((l) => l.replace(/^\s*\*\s?/, '').trim()).filter(Boolean).join(' ');
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

async function loadShapes(): Promise<Map<string, Shape>> {
  const shapes = new Map<string, Shape>();
  const files = readdirSync(schemaDir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).sort();
  for (const file of files) {
    const mod = await import(new URL(file, schemaDir).href) as Record<string, unknown>;
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

const esc = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function typeOf(s: JSONSchema7): string {
  if (s.anyOf) {
    const parts = (s.anyOf as JSONSchema7[]).map(typeOf);
    return parts.join(' or ');
  }
  if (s.enum) return s.enum.map((e) => JSON.stringify(e)).join(' | ');
  if (s.type === 'array') return `${typeOf((s.items ?? {}) as JSONSchema7)}[]`;
  if (s.type === 'string' && s.format) return { date: 'date (YYYY-MM-DD)', 'date-time': 'timestamp (ISO 8601)', email: 'email' }[s.format] ?? `string (${s.format})`;
  if (s.type === 'object' && !s.properties) return s.additionalProperties ? 'object (any keys)' : 'object';
  if (s.type === 'object') return 'object';
  return String(s.type ?? 'any');
}

function rules(s: JSONSchema7): string[] {
  const out: string[] = [];
  const inner = s.anyOf ? (s.anyOf as JSONSchema7[]).find((x) => x.type !== 'null') ?? s : s;
  const item = inner.type === 'array' ? (inner.items as JSONSchema7 | undefined) : undefined;
  if (inner.minLength !== undefined || inner.maxLength !== undefined) out.push(`length ${inner.minLength ?? 0}-${inner.maxLength ?? '∞'}`);
  if (inner.minimum !== undefined || inner.maximum !== undefined) out.push(`${inner.type === 'integer' ? 'whole number ' : ''}${inner.minimum ?? '-∞'} to ${inner.maximum ?? '∞'}`);
  else if (inner.type === 'integer') out.push('whole number');
  if (inner.minItems !== undefined || inner.maxItems !== undefined) out.push(`${inner.minItems ?? 0}-${inner.maxItems ?? '∞'} items`);
  if (inner.pattern) out.push(`pattern \`${inner.pattern}\``);
  if (item && item.type !== 'object') out.push(...rules(item).map((r) => `each: ${r}`));
  if (s.default !== undefined) out.push(`default ${JSON.stringify(s.default)}`);
  return out;
}

type AnySchema = { type: string; entries?: Record<string, AnySchema>; item?: AnySchema; wrapped?: AnySchema };
/** The object schema inside optional/nullable/array wrappers (pipes keep the root's entries). */
function innerObject(schema: AnySchema | undefined): AnySchema | undefined {
  let s = schema;
  while (s && !s.entries) s = s.wrapped ?? s.item;
  return s;
}

/**
 * Rows `path | type | required | notes`, nested objects flattened as `a.b` and `list[].b`. A nested
 * object that is a named schema (AppointmentSchema inside PatientSchema) brings its own field notes.
 */
function fieldRows(s: JSONSchema7, valibot: AnySchema | undefined, notes: Map<string, string>, byObject: Map<unknown, Shape>, prefix = ''): string[] {
  const props = s.properties as Record<string, JSONSchema7> | undefined;
  if (!props) return [];
  const required = new Set(s.required ?? []);
  const rows: string[] = [];
  for (const [key, prop] of Object.entries(props)) {
    const path = `${prefix}${key}`;
    const rule = rules(prop);
    const text = [notes.get(key), rule.length ? rule.join(', ') : ''].filter(Boolean).join(' — ');
    rows.push(`| \`${path}\` | ${esc(typeOf(prop))} | ${required.has(key) && prop.default === undefined ? 'yes' : 'no'} | ${esc(text)} |`);
    const inner = prop.anyOf ? (prop.anyOf as JSONSchema7[]).find((x) => x.type !== 'null') ?? prop : prop;
    const child = innerObject(valibot?.entries?.[key]);
    const childNotes = (child && byObject.get(child)?.fields) ?? notes;
    if (inner.type === 'object') rows.push(...fieldRows(inner, child, childNotes, byObject, `${path}.`));
    if (inner.type === 'array' && (inner.items as JSONSchema7)?.type === 'object') rows.push(...fieldRows(inner.items as JSONSchema7, child, childNotes, byObject, `${path}[].`));
  }
  return rows;
}

function renderShape(shape: Shape, byObject: Map<unknown, Shape>): string {
  const json = toJsonSchema(shape.schema, { errorMode: 'ignore' }) as JSONSchema7;
  const lines = [`### ${shape.name}`, ''];
  if (shape.description) lines.push(shape.description, '');
  lines.push(`Schema: \`${shape.name}Schema\` in client/api/schemas/${shape.file}.`, '');
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

const shapeRefs = (value: string | undefined) =>
  value ? [...value.matchAll(/\b([A-Z]\w*?)(?:\[\])?\b/g)].map((m) => m[1]) : [];
const link = (value: string | undefined, shapes: Map<string, Shape>) =>
  value === undefined ? '' : value.replace(/\b([A-Z]\w*)/g, (name) => (shapes.has(name) ? `[${name}](#${name.toLowerCase()})` : name));

function callRow(call: ApiCall, shapes: Map<string, Shape>): string {
  const answer = call.answer === 'file' ? 'the file' : call.answer ? link(call.answer, shapes) : '—';
  const status = call.status ?? (call.answer ? 200 : 204);
  return `| ${call.method} | \`${call.path}\` | ${call.permission} | ${link(call.query, shapes) || '—'} | ${link(call.body, shapes) || '—'} | ${status} ${answer} | ${esc(call.summary)} |`;
}

export async function renderApiDocs(): Promise<string> {
  const shapes = await loadShapes();
  const used: string[] = [];
  const missing: string[] = [];
  const use = (name: string) => {
    if (!shapes.has(name)) missing.push(name);
    else if (!used.includes(name)) used.push(name);
  };
  for (const family of API_FAMILIES) for (const call of family.calls) for (const ref of [call.query, call.body, call.answer].flatMap(shapeRefs)) use(ref);
  if (missing.length) throw new Error(`scripts/api-catalog.ts names shapes without a schema: ${[...new Set(missing)].join(', ')}`);
  const collectionShapes = Object.entries(SyncCollectionDataSchemas).map(([collection, schema]) => {
    const shape = [...shapes.values()].find((s) => s.schema === schema)!;
    return { collection, shape };
  });

  const count = API_FAMILIES.reduce((n, f) => n + f.calls.length, 0);
  const out: string[] = [
    '# /v2 API reference',
    '',
    '<!-- Generated by `npm run docs:api` from scripts/api-catalog.ts and client/api/schemas/. Do not edit by hand. -->',
    '',
    `${count} calls. All paths are under \`/v2\`. Transport, list filters, the error body and the status codes are`,
    'described in docs/contract.md: bearer token, X-XSRF-TOKEN on mutating calls (checked by the gateway),',
    'every query value JSON-encoded, list answers as JSON arrays with `X-Total-Count`, errors as',
    '`{ "error": { statusCode, name, code, message, details: [{ path, message }] } }` (401 no or invalid token,',
    '403 not allowed, 404 unknown id, 409 conflict, 413 body over 1 MB, 400/422 invalid query or body naming the field).',
    'Ids are strings; dates `YYYY-MM-DD`; timestamps ISO 8601. Request bodies are checked with the schema named',
    'in the table; unknown body fields are dropped unless the shape says otherwise. A NUL character, a lone UTF-16',
    'surrogate or a body that is not UTF-8 is a 400 anywhere (path, query, body); numbers stored in a column must be',
    'whole numbers within a 32-bit integer; timestamps are stored as UTC with milliseconds (`2026-11-20T09:00:00.000Z`),',
    'whatever notation the request used.',
    '',
    '## Versions (no lost writes)',
    '',
    'Patients, comments, coaches, devices and the other records with `updatedAt` are versioned: `updatedAt` grows with',
    'every write (by at least 1 ms), and an answer with one record carries it as `ETag: "<updatedAt>"`. A PUT, PATCH or',
    'DELETE may send `If-Match` with that ETag (or the record\'s `updatedAt`, quoted or not; `W/` is ignored): when the',
    'record has changed since, the answer is 412 `VERSION_MISMATCH` with the record as it is now in `error.current` and',
    'its ETag, and nothing is written. Without If-Match a write is applied to the current record (PATCH changes only the',
    'fields it names, so two PATCHes of different fields both stay). The appointment list is versioned with its',
    'patient, the evaluation form by its own `updatedAt`.',
    '',
    '## Permissions',
    '',
    '| Name | Who |',
    '|---|---|',
    ...Object.entries(PERMISSIONS).map(([name, text]) => `| ${name} | ${esc(text)} |`),
    '',
    '## Calls',
    '',
  ];
  for (const family of API_FAMILIES) {
    out.push(`### ${family.name}`, '', family.intro, '', '| Method | Path | Permission | Query | Body | Answer | What it does |', '|---|---|---|---|---|---|---|');
    for (const call of family.calls) out.push(callRow(call, shapes));
    out.push('');
  }
  out.push('## Shapes', '');
  // Object schema -> its named shape; a shape that is the object itself wins over lists and nullables of it.
  const byObject = new Map<unknown, Shape>();
  for (const direct of [true, false]) {
    for (const shape of shapes.values()) {
      const object = innerObject(shape.schema as unknown as AnySchema);
      if ((object === (shape.schema as unknown)) === direct && !byObject.has(object)) byObject.set(object, shape);
    }
  }
  for (const name of used) out.push(renderShape(shapes.get(name)!, byObject));
  out.push('## SyncCollectionData', '', 'The `data` of a sync record, by collection.', '');
  for (const { collection, shape } of collectionShapes) {
    out.push(renderShape({ ...shape, name: `${shape.name} (collection \`${collection}\`)` }, byObject));
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

/** README.md with its section "Using your own API" generated from the same schemas (scripts/upstream-guide.ts). */
export async function renderReadme(): Promise<string> {
  const shapes = await loadShapes();
  const schemas = new Map([...shapes].map(([name, shape]) => [name, shape.schema]));
  return withGuide(currentReadme(), await renderUpstreamGuide(schemas));
}

async function main() {
  const text = await renderApiDocs();
  const readme = await renderReadme();
  let current = '';
  try {
    current = readFileSync(DOCS_PATH, 'utf8');
  } catch {
    // no file yet
  }
  if (process.argv.includes('--check')) {
    const stale = [current !== text && 'docs/api.md', readme !== currentReadme() && 'README.md ("Using your own API")'].filter(Boolean);
    if (stale.length) {
      console.error(`${stale.join(' and ')} stale: run \`npm run docs:api\` and commit the result.`);
      process.exit(1);
    }
    console.log('docs/api.md and README.md are up to date.');
    return;
  }
  writeFileSync(DOCS_PATH, text);
  writeFileSync(README_PATH, readme);
  console.log(`docs/api.md written (${text.length} characters); README.md section "Using your own API" regenerated.`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();

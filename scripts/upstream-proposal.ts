import type * as v from 'valibot';
import { SHAPES } from '../contract/shapes.ts';
import { requiredFields } from '../client/api/reading.ts';
import { editDistance } from '../server/mapping/closest.ts';
import { entriesOf, itemOf, jsonTypeOf, picklistOf, unwrap } from '../server/mapping/schema-parts.ts';

/*
 * The mapping `npm run check:upstream` proposes (scripts/check-upstream.ts): for a contract field an answer lacks, an
 * API field of the same JSON type that nothing else claims and whose name is likely the same thing (similar spelling,
 * one name inside the other, a few generic synonyms); cents beside a plain amount get scale 100; abbreviated picklist
 * values get a values table; sync records without `data` are flat. A guess for the operator to read, not a verdict.
 */

type Plain = Record<string, unknown>;
type FieldRule = string | { name?: string; scale?: number; values?: Record<string, string> };
export interface MappingJson {
  entities: Record<string, { fields?: Record<string, FieldRule>; flat?: boolean }>;
  /** What the proposal could not decide (not part of the mapping file). */
  notes?: string[];
}
/** The answers of one shape: its schema (with the shape's name) and the objects the API sent. */
export interface Sample {
  shape: string;
  schema: v.GenericSchema;
  objects: unknown[];
}

/** Generic synonyms, both ways; spelling similarity does the rest. */
const SYNONYMS: [string, string][] = [
  ['birthdate', 'birthday'],
  ['birthdate', 'dateofbirth'],
  ['birthdate', 'dob'],
  ['code', 'token'],
  ['name', 'title'],
  ['gender', 'sex'],
  ['lastname', 'surname'],
  ['lastname', 'familyname'],
  ['firstname', 'givenname'],
  ['createdat', 'created'],
  ['updatedat', 'modified'],
  ['updatedat', 'updated'],
];
const norm = (name: string) => name.toLowerCase().replace(/[_-]/g, '');
const isPlain = (value: unknown): value is Plain => typeof value === 'object' && value !== null && !Array.isArray(value);

/** How likely `api` names the contract's `field`: 0 (not) to 1 (a synonym); scale 100 for cents beside a plain amount. */
export function likeness(field: string, api: string): { score: number; scale?: number } {
  const [f, a] = [norm(field), norm(api)];
  if (f === a) return { score: 0.95 };
  if (SYNONYMS.some(([x, y]) => (x === f && y === a) || (y === f && x === a))) return { score: 1 };
  const amount = f.endsWith('cents') ? f.slice(0, -5) : undefined;
  if (amount && [amount, `${amount}euro`, `${amount}euros`].includes(a)) return { score: 0.9, scale: 100 };
  const [long, short] = f.length >= a.length ? [f, a] : [a, f];
  if (short.length >= 4 && long.endsWith(short)) return { score: 0.8 };
  if (short.length >= 4 && long.startsWith(short)) return { score: 0.7 };
  if (editDistance(f, a) <= Math.max(2, Math.floor(f.length / 3))) return { score: 0.6 };
  // The same last words (primaryCoachId, leadCoachId): two of them, or one long one (aftercareStart, programStart).
  const [fw, aw] = [words(field), words(api)];
  let same = 0;
  while (same < Math.min(fw.length, aw.length) && fw.at(-1 - same) === aw.at(-1 - same)) same++;
  return { score: same >= 2 || (same === 1 && (fw.at(-1)?.length ?? 0) >= 5) ? 0.5 : 0 };
}

/** camelCase, snake_case and kebab-case names as lower-case words. */
const words = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());

/**
 * A rename seen once is likely repeated: aftercareStart -> programStart makes programEnd the likely name of
 * aftercareEnd. Returns the API name the same change of the first words gives, if the answer has it.
 */
function parallelRename(field: string, renames: [string, string][], present: Set<string>): string | undefined {
  for (const [from, to] of renames) {
    const [fw, tw] = [words(from), words(to)];
    const tail = fw.at(-1);
    if (fw.length < 2 || tw.length < 2 || tail === undefined || tail !== tw.at(-1)) continue;
    const [oldHead, newHead] = [from.slice(0, from.toLowerCase().lastIndexOf(tail)), to.slice(0, to.toLowerCase().lastIndexOf(tail))];
    if (!field.startsWith(oldHead) || field === from) continue;
    const candidate = newHead + field.slice(oldHead.length);
    if (present.has(candidate)) return candidate;
  }
  return undefined;
}

/** A value of the API fits a contract field of this JSON type (ids may be numbers, null fits anything). */
function fits(schema: v.GenericSchema, field: string, value: unknown): boolean {
  const type = jsonTypeOf(schema);
  if (value === null || value === undefined || type === 'unknown') return true;
  const actual = Array.isArray(value) ? 'array' : typeof value;
  return actual === type || (type === 'string' && actual === 'number' && /id$/i.test(field));
}

/** The picklist values an API abbreviates ("f" for female): each seen value the start of exactly one option. */
function proposeValues(options: string[], seen: unknown[]): Record<string, string> | undefined {
  const strange = [...new Set(seen.filter((value): value is string => typeof value === 'string' && !options.includes(value)))];
  if (strange.length === 0) return undefined;
  const values: Record<string, string> = {};
  for (const value of strange) {
    const matches = options.filter((option) => option.toLowerCase().startsWith(value.toLowerCase()));
    if (matches.length !== 1 || matches[0] in values) return undefined;
    values[matches[0]] = value;
  }
  return values;
}

const shapeNameOf = (schema: v.GenericSchema) => [...SHAPES].find(([, s]) => s === schema || unwrap(s) === unwrap(schema))?.[0];

/** A flat record as the gateway reads it: the envelope's fields stay, the rest (and fields both have, like date) go under data. */
function nest(record: Plain, entries: Record<string, v.GenericSchema>, apiName: (field: string) => string): Plain {
  const envelope = new Set(
    Object.keys(entries)
      .filter((f) => f !== 'data')
      .map(apiName),
  );
  const dataFields = new Set(Object.keys(entriesOf(entries.data) ?? {}));
  const pick = (keep: (key: string) => boolean) => Object.fromEntries(Object.entries(record).filter(([key]) => keep(key)));
  return { ...pick((key) => envelope.has(key)), data: pick((key) => !envelope.has(key) || dataFields.has(key)) };
}

/** Proposes for one object shape and the shapes nested in it, adding to `out`. */
function proposeShape(shape: string, schema: v.GenericSchema, objects: Plain[], out: MappingJson): void {
  const entries = entriesOf(schema);
  if (!entries || objects.length === 0) return;
  out.entities[shape] ??= {};
  const entity = out.entities[shape];
  entity.fields ??= {};
  const fields = entity.fields;
  const apiName = (field: string) => {
    const rule = fields[field];
    return rule === undefined ? field : typeof rule === 'string' ? rule : (rule.name ?? field);
  };
  const flat = !!entries.data && objects.every((o) => !isPlain(o.data));
  if (flat) entity.flat = true;
  const present = new Set(objects.flatMap((o) => Object.keys(o)));
  const claimed = new Set(Object.keys(entries).map(apiName));
  for (const field of Object.keys(entries)) {
    if (present.has(apiName(field)) || (flat && field === 'data')) continue;
    const best = [...present]
      .filter((api) => !claimed.has(api) && objects.every((o) => fits(entries[field], field, o[api])))
      .map((api) => ({ api, ...likeness(field, api) }))
      .filter((c) => c.score > 0)
      .sort((a, b) => b.score - a.score)[0];
    if (!best) continue;
    fields[field] = best.scale ? { name: best.api, scale: best.scale } : best.api;
    claimed.add(best.api);
  }
  const renames = Object.entries(fields).filter((pair): pair is [string, string] => typeof pair[1] === 'string');
  for (const field of Object.keys(entries)) {
    if (present.has(apiName(field)) || fields[field] !== undefined) continue;
    const candidate = parallelRename(field, renames, new Set([...present].filter((api) => !claimed.has(api))));
    if (candidate && objects.every((o) => fits(entries[field], field, o[candidate]))) {
      fields[field] = candidate;
      claimed.add(candidate);
    }
  }
  pairLastOnes(schema, objects, present, claimed, fields, apiName);
  const records = flat ? objects.map((o) => nest(o, entries, apiName)) : objects;
  for (const field of Object.keys(entries)) {
    const options = picklistOf(entries[field]);
    if (typeof fields[field] === 'object' && fields[field].values) continue;
    const values =
      options &&
      proposeValues(
        options,
        records.map((o) => o[apiName(field)]),
      );
    if (values) fields[field] = { ...(typeof fields[field] === 'object' ? fields[field] : { name: apiName(field) }), values };
    else if (options)
      noteStrangeValues(
        `${shape}.${field}`,
        options,
        records.map((o) => o[apiName(field)]),
        out,
      );
  }
  for (const [field, fieldSchema] of Object.entries(entries))
    proposeNested(
      fieldSchema,
      records.map((o) => o[apiName(field)]),
      out,
    );
  if (Object.keys(fields).length === 0) delete entity.fields;
  if (Object.keys(entity).length === 0) delete out.entities[shape];
}

/**
 * When, after every likelier guess, exactly one field the client needs (client/api/reading.ts) of a JSON type is still
 * missing and exactly one API field of that type is still unclaimed, they are most likely the same thing (a cost
 * rate's `name` as `designation`).
 */
function pairLastOnes(
  schema: v.GenericSchema,
  objects: Plain[],
  present: Set<string>,
  claimed: Set<string>,
  fields: Record<string, FieldRule>,
  apiName: (field: string) => string,
): void {
  const entries = entriesOf(schema) ?? {};
  const needed = requiredFields(schema as never);
  const missing = needed.filter((field) => field !== 'data' && fields[field] === undefined && !present.has(apiName(field)));
  const free = [...present].filter((api) => !claimed.has(api) && objects.every((o) => o[api] !== undefined && o[api] !== null));
  const typeOf = (value: unknown) => (Array.isArray(value) ? 'array' : typeof value);
  for (const type of new Set(missing.map((field) => jsonTypeOf(entries[field])))) {
    const fieldsOfType = missing.filter((field) => jsonTypeOf(entries[field]) === type);
    const apisOfType = free.filter((api) => objects.every((o) => typeOf(o[api]) === type));
    if (type === 'unknown' || fieldsOfType.length !== 1 || apisOfType.length !== 1) continue;
    fields[fieldsOfType[0]] = apisOfType[0];
    claimed.add(apisOfType[0]);
  }
}

/** Picklist values the API spells otherwise and no rule can pair: said in words, for the operator to map by hand. */
function noteStrangeValues(where: string, options: string[], seen: unknown[], out: MappingJson): void {
  const strange = [...new Set(seen.filter((value): value is string => typeof value === 'string' && !options.includes(value)))];
  if (strange.length === 0) return;
  const notes = (out.notes ??= []);
  notes.push(`${where}: the API sends ${strange.join(', ')}, the contract knows ${options.join(', ')}; map them with "values" by hand.`);
}

function proposeNested(schema: v.GenericSchema, values: unknown[], out: MappingJson): void {
  const item = itemOf(schema);
  const inner = item ?? schema;
  const name = shapeNameOf(inner);
  const objects = (item ? values.flatMap((value) => (Array.isArray(value) ? value : [])) : values).filter(isPlain);
  if (name && entriesOf(inner)) proposeShape(name, inner, objects, out);
}

/** The proposed mapping for what the answers showed, on top of `base` (a mapping given to the check, or none). */
export function proposeMapping(samples: Sample[], base: MappingJson = { entities: {} }): MappingJson {
  const out: MappingJson = structuredClone(base);
  for (const sample of samples) proposeShape(sample.shape, sample.schema, sample.objects.filter(isPlain), out);
  return out;
}

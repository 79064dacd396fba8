import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { SHAPES } from '../../contract/shapes.ts';
import { didYouMean } from './closest.ts';
import { firstDuplicateKey } from './duplicate-keys.ts';
import { entriesOf, jsonTypeOf, picklistOf } from './schema-parts.ts';

/*
 * The operator's field mapping (README, "Using your own API"): per contract shape, the API's name of each field, a
 * unit scale and picklist values. Checked completely at start-up, so a wrong file stops the gateway with one line
 * instead of answering with half-translated records.
 */

export interface FieldMapping {
  /** The API's name of the field. */
  api: string;
  /** contract value = API value × scale. */
  scale?: number;
  /** contract value -> API value. */
  values?: Record<string, string>;
}
export interface EntityMapping {
  /** Contract field name -> how the API holds it; only the fields the file names. */
  fields: Map<string, FieldMapping>;
  /** The API keeps the fields of `data` at the top level of the record. */
  flat: boolean;
}
/** Contract shape name -> its mapping. */
export type UpstreamMapping = Map<string, EntityMapping>;

/** A problem in the file: where (a dotted place in the JSON, or empty for the file itself) and what to fix. */
export class MappingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MappingError';
  }
}

const POSITIVE = 'must be a positive number (contract value = API value × scale, e.g. 100 for euros in the API and cents in the contract)';
const apiName = (what: string) => v.pipe(v.string(`${what} must be the API's field name (text)`), v.minLength(1, `${what} must not be empty`));
const FieldObjectSchema = v.strictObject(
  {
    name: v.optional(apiName('name')),
    scale: v.optional(v.pipe(v.number(POSITIVE), v.gtValue(0, POSITIVE), v.finite(POSITIVE))),
    values: v.optional(
      v.record(
        v.string(),
        v.pipe(v.string('must be the API value (text)'), v.minLength(1, 'must not be empty')),
        'must be an object: contract value -> API value',
      ),
    ),
  },
  'may only have name, scale and values',
);
const FileSchema = v.strictObject(
  {
    entities: v.record(
      v.string(),
      v.strictObject(
        {
          fields: v.optional(
            v.record(
              v.string(),
              v.union([apiName('the value'), FieldObjectSchema], "must be the API's field name or an object with name, scale and/or values"),
              'must be an object: contract field -> API name',
            ),
          ),
          flat: v.optional(v.boolean('must be true or false')),
        },
        'may only have fields and flat',
      ),
      'must be an object: contract shape -> its mapping',
    ),
  },
  'must be an object with "entities" only',
);
type FileContent = v.InferOutput<typeof FileSchema>;

/** Reads and checks the mapping file; throws MappingError with a one-line message that names the place. */
export function readMapping(file: string): UpstreamMapping {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new MappingError(`cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}): give the path of a readable JSON file`);
  }
  return parseMapping(text);
}

/** Checks the text of a mapping file (see readMapping). */
export function parseMapping(text: string): UpstreamMapping {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new MappingError(`is not valid JSON: ${(error as Error).message.replace(/\s+/g, ' ')}`);
  }
  const duplicate = firstDuplicateKey(text);
  if (duplicate) throw new MappingError(`${duplicate} is mapped twice: keep one`);
  const result = v.safeParse(FileSchema, json);
  if (!result.success) {
    const { place, message } = deepest(result.issues[0]);
    throw new MappingError(`${place.join('.') || 'the file'} ${message}`);
  }
  return checkEntities(result.output);
}

/**
 * A field that is neither a name nor a valid object: the object's own problem (scale: "100") says more than the
 * union's. Returns the place (the union's path with the inner issue's, which is relative to it) and the message.
 */
function deepest(issue: v.BaseIssue<unknown>): { place: string[]; message: string } {
  const place = (issue.path ?? []).map((item) => String(item.key));
  const inner = (issue.issues ?? []).filter((one) => (one.path?.length ?? 0) > 0).sort((a, b) => (b.path?.length ?? 0) - (a.path?.length ?? 0))[0];
  if (!inner) return { place, message: issue.message };
  const below = deepest(inner);
  return { place: [...place, ...below.place], message: below.message };
}

function checkEntities(content: FileContent): UpstreamMapping {
  const mapping: UpstreamMapping = new Map();
  for (const [shape, entity] of Object.entries(content.entities)) {
    const place = `entities.${shape}`;
    const schema = SHAPES.get(shape);
    if (!schema) throw new MappingError(`${place} is not a shape of the contract${didYouMean(shape, SHAPES.keys())}: docs/api.md lists them`);
    const entries = entriesOf(schema);
    if (!entries) throw new MappingError(`${place} has no fields of its own: map the object shape it holds (a list X[] is mapped as X)`);
    if (entity.flat && !entries.data) throw new MappingError(`${place}.flat applies only to a shape with a data object (SyncRecord); ${shape} has none`);
    const fields = new Map<string, FieldMapping>();
    for (const [field, rule] of Object.entries(entity.fields ?? {})) {
      const fieldPlace = `${place}.fields.${field}`;
      if (!entries[field]) throw new MappingError(`${fieldPlace} is not a field of ${shape}${didYouMean(field, Object.keys(entries))}`);
      fields.set(field, checkField(fieldPlace, field, entries[field], typeof rule === 'string' ? { name: rule } : rule));
    }
    checkApiNamesUnique(place, entries, fields);
    mapping.set(shape, { fields, flat: entity.flat ?? false });
  }
  return mapping;
}

function checkField(
  place: string,
  field: string,
  schema: v.GenericSchema,
  rule: { name?: string; scale?: number; values?: Record<string, string> },
): FieldMapping {
  if (rule.scale !== undefined && jsonTypeOf(schema) !== 'number') throw new MappingError(`${place}.scale applies to number fields only; ${field} is not one`);
  if (rule.values !== undefined) {
    const options = picklistOf(schema);
    if (!options) throw new MappingError(`${place}.values applies to fields with fixed values only; ${field} has none`);
    const seen = new Map<string, string>();
    for (const [value, api] of Object.entries(rule.values)) {
      if (!options.includes(value)) throw new MappingError(`${place}.values.${value} is not a value of ${field}${didYouMean(value, options)}`);
      if (seen.has(api))
        throw new MappingError(`${place}.values.${value} maps onto "${api}" like ${seen.get(api)}: each API value may stand for one value only`);
      seen.set(api, value);
    }
  }
  return { api: rule.name ?? field, scale: rule.scale, values: rule.values };
}

/** Two fields onto one API name could not be told apart in an answer. Unmapped fields keep their own name. */
function checkApiNamesUnique(place: string, entries: Record<string, v.GenericSchema>, fields: Map<string, FieldMapping>): void {
  const owner = new Map<string, string>();
  for (const field of Object.keys(entries)) if (!fields.has(field)) owner.set(field, field);
  for (const [field, rule] of fields) {
    const other = owner.get(rule.api);
    if (other !== undefined) {
      throw new MappingError(`${place}.fields.${field} maps onto "${rule.api}", which ${other} already has: each API name may stand for one field only`);
    }
    owner.set(rule.api, field);
  }
}

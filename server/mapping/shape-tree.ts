import type * as v from 'valibot';
import { SHAPES } from '../../contract/shapes.ts';
import type { EntityMapping, FieldMapping, UpstreamMapping } from './mapping-file.ts';
import { entriesOf, itemOf, unwrap } from './schema-parts.ts';

/*
 * A contract schema reduced to what the mapping touches: the objects whose shape is mapped (or that hold one) and the
 * arrays of them. A schema the mapping does not touch compiles to null, and a call with nothing but nulls is not
 * translated at all.
 */

export interface ObjectNode {
  type: 'object';
  /** The mapping of this object's shape, when it has one. */
  entity?: EntityMapping;
  /** Every contract field of the object (also the unmapped ones: a flat record needs them to tell data from envelope). */
  fields: string[];
  /** Contract name -> API name, and back, for the mapped fields. */
  toApiName: Map<string, string>;
  toContractName: Map<string, string>;
  /** The nested objects and arrays that need translating, by contract field name. */
  children: Map<string, Node>;
}
export interface ArrayNode {
  type: 'array';
  item: Node;
}
export type Node = ObjectNode | ArrayNode;

/** Every name a schema object has in the contract (one object may be exported twice: CostRateUpdate = CostRateCreate). */
const NAMES = new Map<unknown, string[]>();
for (const [name, schema] of SHAPES) {
  for (const key of new Set([schema, unwrap(schema)])) NAMES.set(key, [...(NAMES.get(key) ?? []), name]);
}

/** A mapping that changes something; an entity listed with no fields and not flat is the same as none. */
function effective(entity: EntityMapping | undefined): EntityMapping | undefined {
  return entity && (entity.fields.size > 0 || entity.flat) ? entity : undefined;
}

/**
 * The tree of `schema` under `mapping`; `as` names the shape whose mapping the top object takes when the schema is not
 * that shape itself (a body like PatientCreate takes Patient's names, a collection's record takes SyncRecord's).
 */
export function shapeTree(schema: v.GenericSchema, mapping: UpstreamMapping, as?: string, depth = 0): Node | null {
  if (depth > 8) return null;
  const item = itemOf(schema);
  if (item) {
    const node = shapeTree(item, mapping, as, depth + 1);
    return node && { type: 'array', item: node };
  }
  const entries = entriesOf(schema);
  if (!entries) return null;
  const names = as ? [as] : (NAMES.get(schema) ?? NAMES.get(unwrap(schema)) ?? []);
  const entity = effective(names.map((name) => mapping.get(name)).find(Boolean));
  const children = new Map<string, Node>();
  for (const [field, fieldSchema] of Object.entries(entries)) {
    const child = shapeTree(fieldSchema, mapping, undefined, depth + 1) ?? (entity?.flat && field === 'data' ? plainObject(fieldSchema) : null);
    if (child) children.set(field, child);
  }
  const toApiName = new Map<string, string>();
  for (const [field, rule] of entity?.fields ?? []) if (field in entries) toApiName.set(field, rule.api);
  // Nothing of this object changes (a body that has none of the mapped fields): the call can stream.
  if (!entity?.flat && toApiName.size === 0 && children.size === 0) return null;
  return { type: 'object', entity, fields: Object.keys(entries), toApiName, toContractName: new Map([...toApiName].map(([c, a]) => [a, c])), children };
}

/** An object without a mapping of its own (a flat record's data whose shape is not mapped): only its field names count. */
function plainObject(schema: v.GenericSchema): ObjectNode {
  return { type: 'object', fields: Object.keys(entriesOf(schema) ?? {}), toApiName: new Map(), toContractName: new Map(), children: new Map() };
}

/** The rule of a contract field of an object node, if the mapping has one. */
export const ruleOf = (node: ObjectNode, field: string): FieldMapping | undefined => node.entity?.fields.get(field);

/** The fields of every candidate shape contain all of the body's fields: the body is a partial or whole X. */
export function containsFields(shape: string, schema: v.GenericSchema): boolean {
  const outer = SHAPES.get(shape);
  const own = outer && entriesOf(outer);
  const body = entriesOf(schema);
  return !!own && !!body && Object.keys(body).every((field) => field in own);
}

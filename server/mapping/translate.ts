import type { FieldMapping } from './mapping-file.ts';
import { type Node, type ObjectNode, ruleOf } from './shape-tree.ts';

/*
 * Moving JSON values between the contract's names and the API's along a shape tree (shape-tree.ts). Whatever the tree
 * does not know (extra fields, unexpected types) is passed on as it came: the client's own schema checks judge it.
 */

type Json = unknown;
type Plain = Record<string, Json>;

export const isPlain = (value: Json): value is Plain => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Scaled values are rounded to 15 digits: 19.99 × 100 is 1999, not 1998.9999999999998. */
const exact = (value: number) => Number(value.toPrecision(15));

/** One value of a field, contract -> API. */
export function valueToApi(rule: FieldMapping | undefined, value: Json): Json {
  if (!rule) return value;
  if (rule.scale !== undefined && typeof value === 'number') return exact(value / rule.scale);
  if (rule.values && typeof value === 'string') return rule.values[value] ?? value;
  return value;
}

/** One value of a field, API -> contract. */
export function valueToContract(rule: FieldMapping | undefined, value: Json): Json {
  if (!rule) return value;
  if (rule.scale !== undefined && typeof value === 'number') return exact(value * rule.scale);
  if (rule.values && typeof value === 'string') return Object.entries(rule.values).find(([, api]) => api === value)?.[0] ?? value;
  return value;
}

/** An answer (or part of one) from the API's names to the contract's. */
export function toContract(node: Node, value: Json): Json {
  if (node.type === 'array') return Array.isArray(value) ? value.map((item) => toContract(node.item, item)) : value;
  if (!isPlain(value)) return value;
  const source = node.entity?.flat ? nestFlat(node, value) : value;
  const out: Plain = {};
  // Fields the mapping does not name first, so a mapped field wins over an API field that happens to share its name.
  for (const [key, item] of Object.entries(source)) if (!node.toContractName.has(key) && !node.toApiName.has(key)) out[key] = fieldToContract(node, key, item);
  for (const [key, item] of Object.entries(source)) {
    const field = node.toContractName.get(key);
    if (field !== undefined) out[field] = fieldToContract(node, field, item);
  }
  return out;
}

function fieldToContract(node: ObjectNode, field: string, value: Json): Json {
  const child = node.children.get(field);
  return valueToContract(ruleOf(node, field), child ? toContract(child, value) : value);
}

/** A request body (or part of one) from the contract's names to the API's. */
export function toApi(node: Node, value: Json): Json {
  if (node.type === 'array') return Array.isArray(value) ? value.map((item) => toApi(node.item, item)) : value;
  if (!isPlain(value)) return value;
  const out: Plain = {};
  for (const [key, item] of Object.entries(value)) {
    const child = node.children.get(key);
    out[node.toApiName.get(key) ?? key] = valueToApi(ruleOf(node, key), child ? toApi(child, item) : item);
  }
  if (!node.entity?.flat) return out;
  // Flat: data's fields beside the envelope's; where both have a field (date), the envelope's value stands.
  const { data, ...envelope } = out;
  return isPlain(data) ? { ...data, ...envelope } : out;
}

/**
 * A flat record as the API sends it -> the same record with its data fields under `data` (still in the API's names):
 * every field that is not one of the envelope's goes there, and a field that both have (date) goes to both.
 */
function nestFlat(node: ObjectNode, value: Plain): Plain {
  const envelope = new Set(node.fields.filter((field) => field !== 'data').map((field) => node.toApiName.get(field) ?? field));
  const dataNode = node.children.get('data');
  const dataFields = new Set(dataNode?.type === 'object' ? dataNode.fields.map((field) => dataNode.toApiName.get(field) ?? field) : []);
  const record: Plain = {};
  const data: Plain = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === 'data' && isPlain(item)) Object.assign(data, item);
    else if (!envelope.has(key)) data[key] = item;
    else {
      record[key] = item;
      if (dataFields.has(key)) data[key] = item;
    }
  }
  record.data = data;
  return record;
}

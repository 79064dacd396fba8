import type { FieldMapping } from './mapping-file.ts';
import type { ObjectNode } from './shape-tree.ts';
import { isPlain, valueToApi } from './translate.ts';

/*
 * The JSON-encoded `filter` and `where` query values of a list call, contract names -> API names (LoopBack's filter:
 * where with and/or and operators, order, fields). Values are converted like body values (scale, picklist values),
 * except the patterns of like/nlike/ilike/regexp, which are text to match, not field values.
 */

const PATTERN_OPERATORS = new Set(['like', 'nlike', 'ilike', 'nilike', 'regexp', 'options']);

/** A filter or where key (`lastName`, `data.mood`, `patient.firstName`) -> its API key and the rule of its field. */
function keyToApi(node: ObjectNode, key: string): [string, FieldMapping | undefined] {
  const [first, ...rest] = key.split('.');
  if (node.entity?.flat && first === 'data' && rest.length > 0) {
    const dataNode = node.children.get('data');
    if (dataNode?.type !== 'object') return [rest.join('.'), undefined];
    const [field, ...deeper] = rest;
    return [[dataNode.toApiName.get(field) ?? field, ...deeper].join('.'), dataNode.entity?.fields.get(field)];
  }
  return [[node.toApiName.get(first) ?? first, ...rest].join('.'), rest.length === 0 ? node.entity?.fields.get(first) : undefined];
}

function conditionToApi(rule: FieldMapping | undefined, condition: unknown): unknown {
  if (!rule) return condition;
  if (!isPlain(condition)) return Array.isArray(condition) ? condition.map((item) => valueToApi(rule, item)) : valueToApi(rule, condition);
  const out: Record<string, unknown> = {};
  for (const [operator, operand] of Object.entries(condition)) {
    if (PATTERN_OPERATORS.has(operator)) out[operator] = operand;
    else out[operator] = Array.isArray(operand) ? operand.map((item) => valueToApi(rule, item)) : valueToApi(rule, operand);
  }
  return out;
}

export function whereToApi(node: ObjectNode, where: unknown): unknown {
  if (!isPlain(where)) return where;
  const out: Record<string, unknown> = {};
  for (const [key, condition] of Object.entries(where)) {
    if ((key === 'and' || key === 'or') && Array.isArray(condition)) out[key] = condition.map((part) => whereToApi(node, part));
    else {
      const [apiKey, rule] = keyToApi(node, key);
      out[apiKey] = conditionToApi(rule, condition);
    }
  }
  return out;
}

/** "lastName ASC" -> "name_last ASC". */
const orderToApi = (node: ObjectNode, order: unknown): unknown => {
  const one = (item: unknown) => {
    if (typeof item !== 'string') return item;
    const [key, ...direction] = item.trim().split(/\s+/);
    return [keyToApi(node, key)[0], ...direction].join(' ');
  };
  return Array.isArray(order) ? order.map(one) : one(order);
};

const fieldsToApi = (node: ObjectNode, fields: unknown): unknown => {
  if (Array.isArray(fields)) return fields.map((field) => (typeof field === 'string' ? keyToApi(node, field)[0] : field));
  if (!isPlain(fields)) return fields;
  return Object.fromEntries(Object.entries(fields).map(([field, shown]) => [keyToApi(node, field)[0], shown]));
};

export function filterToApi(node: ObjectNode, filter: unknown): unknown {
  if (!isPlain(filter)) return filter;
  const out: Record<string, unknown> = { ...filter };
  if ('where' in filter) out.where = whereToApi(node, filter.where);
  if ('order' in filter) out.order = orderToApi(node, filter.order);
  if ('fields' in filter) out.fields = fieldsToApi(node, filter.fields);
  return out;
}

/**
 * What a call's query string needs: `filter`/`where` about the answer's shape (ListFilter), or a query shape of its
 * own (StatisticsQuery: parameter names and values by its mapping) with an `order` about the answer's rows.
 */
export interface QueryPlan {
  filter?: ObjectNode;
  params?: ObjectNode;
  order?: ObjectNode;
}

/** A query value as the client sends it (JSON-encoded), converted; text that is not JSON is converted as text. */
function paramToApi(raw: string, convert: (value: unknown) => unknown): string {
  try {
    return JSON.stringify(convert(JSON.parse(raw)));
  } catch {
    const converted = convert(raw);
    return typeof converted === 'string' ? converted : JSON.stringify(converted);
  }
}

/** One name=value part of the query string, translated; null when the plan leaves it alone. */
function partToApi(plan: QueryPlan, name: string, raw: string): [string, string] | null {
  if (plan.filter && (name === 'filter' || name === 'where')) {
    const node = plan.filter;
    return [name, paramToApi(raw, (value) => (name === 'filter' ? filterToApi(node, value) : whereToApi(node, value)))];
  }
  if (plan.order && name === 'order') {
    const node = plan.order;
    return [plan.params?.toApiName.get(name) ?? name, paramToApi(raw, (value) => orderToApi(node, value))];
  }
  const params = plan.params;
  if (!params?.toApiName.has(name) && !params?.entity?.fields.has(name)) return null;
  return [params.toApiName.get(name) ?? name, paramToApi(raw, (value) => valueToApi(params.entity?.fields.get(name), value))];
}

/** The query string translated by the plan; every part it leaves alone stays byte for byte. */
export function queryToApi(plan: QueryPlan, query: string): string {
  return query
    .split('&')
    .map((part) => {
      const at = part.indexOf('=');
      if (at < 0) return part;
      const name = decodePart(part.slice(0, at));
      const raw = decodePart(part.slice(at + 1));
      const translated = name !== null && raw !== null ? partToApi(plan, name, raw) : null;
      return translated ? `${encodeURIComponent(translated[0])}=${encodeURIComponent(translated[1])}` : part;
    })
    .join('&');
}

function decodePart(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

import type * as v from 'valibot';
import { API_FAMILIES, type ApiCall } from '../../contract/catalog.ts';
import { sync } from '../../contract/catalog-kinds.ts';
import { SYNC_COLLECTIONS, SyncRecordSchemas, syncUpsertSchema } from '../../contract/schemas/sync-db.ts';
import { SHAPES } from '../../contract/shapes.ts';
import type { QueryPlan } from './filter.ts';
import type { UpstreamMapping } from './mapping-file.ts';
import { entriesOf } from './schema-parts.ts';
import { containsFields, type Node, shapeTree } from './shape-tree.ts';

/** What one call needs translated; a call the mapping does not touch has none (and is streamed as before). */
export interface CallTranslation {
  answer?: Node;
  body?: Node;
  /** How its query string is translated. */
  query?: QueryPlan;
}

/** The calls of the catalogue the mapping touches, found by method and path (without /v2). */
export interface Translations {
  find(method: string, path: string): CallTranslation | undefined;
}

interface Route {
  method: string;
  pattern: RegExp;
  /** One translation, or one per sync collection (by the {collection} of the path). */
  translation?: CallTranslation;
  perCollection?: Map<string, CallTranslation>;
}

const SEGMENT = /\{(\w+)\}/g;

function patternOf(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => (segment.startsWith('{') ? '([^/]+)' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

const baseOf = (answer: string) => answer.replace(/\[\]$/, '');

/**
 * The shape whose names a body takes: its own mapping; X for XCreate/XUpdate/XPatch/XUpsert (also with fields X lacks,
 * like a new coach's password); else the call's answer shape when the body has only fields of it (CoachConnect).
 */
function bodyShape(body: string, answer: string | undefined, mapping: UpstreamMapping): string | undefined {
  if (mapping.has(body)) return body;
  const schema = SHAPES.get(body);
  if (!schema) return undefined;
  const named = /^(.+?)(?:Create|Update|Patch|Upsert)$/.exec(body)?.[1];
  if (named && SHAPES.has(named)) return named;
  const fromAnswer = answer && answer !== 'file' ? baseOf(answer) : undefined;
  return fromAnswer && containsFields(fromAnswer, schema) ? fromAnswer : undefined;
}

/** The query of a call: `filter`/`where` about the answer's shape, or a query shape of its own (StatisticsQuery) whose `order` sorts the answer's rows. */
function queryPlanOf(call: ApiCall, mapping: UpstreamMapping, answer: Node | undefined): QueryPlan | undefined {
  const element = answer?.type === 'array' ? answer.item : answer;
  const about = element?.type === 'object' && element.entity ? element : undefined;
  if (!call.query) return undefined;
  if (call.query.startsWith('filter')) return about && { filter: about };
  const schema = SHAPES.get(call.query);
  const own = schema && shapeTree(schema, mapping, call.query);
  const plan: QueryPlan = {
    params: own?.type === 'object' ? own : undefined,
    order: about && schema && 'order' in (entriesOfShape(call.query) ?? {}) ? about : undefined,
  };
  return plan.params || plan.order ? plan : undefined;
}

const entriesOfShape = (name: string) => {
  const schema = SHAPES.get(name);
  return schema && entriesOf(schema);
};

function translationOf(call: ApiCall, mapping: UpstreamMapping, answerSchema?: v.GenericSchema, bodySchema?: v.GenericSchema): CallTranslation | undefined {
  const result: CallTranslation = {};
  if (call.answer && call.answer !== 'file') {
    const base = baseOf(call.answer);
    const schema = answerSchema ?? SHAPES.get(base);
    const node = schema && shapeTree(schema, mapping, base);
    if (node) result.answer = call.answer.endsWith('[]') ? { type: 'array', item: node } : node;
  }
  result.query = queryPlanOf(call, mapping, result.answer);
  if (call.body) {
    const schema = bodySchema ?? SHAPES.get(call.body);
    const node = schema && shapeTree(schema, mapping, bodyShape(call.body, call.answer, mapping));
    if (node) result.body = node;
  }
  return result.answer || result.body || result.query ? result : undefined;
}

/** Which shape's names each request body of the catalogue takes (README, "The field mapping"), for a mapping that names none of the bodies itself. */
export function bodyShapes(): Map<string, string> {
  const result = new Map<string, string>();
  for (const call of API_FAMILIES.flatMap((family) => family.calls)) {
    const shape = call.body && bodyShape(call.body, call.answer, new Map());
    if (call.body && shape && shape !== call.body) result.set(call.body, shape);
  }
  return result;
}

/** Compiles the mapping once into per-call translations (start-up). */
export function compileTranslations(mapping: UpstreamMapping): Translations {
  const routes: Route[] = [];
  for (const call of API_FAMILIES.flatMap((family) => family.calls)) {
    const route: Route = { method: call.method, pattern: patternOf(call.path) };
    if (call.path.startsWith(sync)) {
      // A record's data has the shape of its collection: one translation per collection.
      route.perCollection = new Map();
      for (const collection of SYNC_COLLECTIONS) {
        const translation = translationOf(call, mapping, SyncRecordSchemas[collection], syncUpsertSchema(collection));
        if (translation) route.perCollection.set(collection, translation);
      }
      if (route.perCollection.size === 0) continue;
    } else {
      route.translation = translationOf(call, mapping);
      if (!route.translation) continue;
    }
    routes.push(route);
  }
  // /coaches/create-trial-access before /coaches/{id}: the more literal segments, the more specific.
  const all = API_FAMILIES.flatMap((family) => family.calls).map((call) => ({
    method: call.method,
    pattern: patternOf(call.path),
    literals: call.path.replace(SEGMENT, '').split('/').filter(Boolean).length,
  }));
  all.sort((a, b) => b.literals - a.literals);
  const byPath = new Map(routes.map((route) => [`${route.method} ${route.pattern.source}`, route]));
  return {
    find(method, path) {
      // The most specific call of the whole catalogue decides, so an untouched specific call never borrows a general one's translation.
      const call = all.find((candidate) => candidate.method === method && candidate.pattern.test(path));
      const route = call && byPath.get(`${call.method} ${call.pattern.source}`);
      if (!route) return undefined;
      if (!route.perCollection) return route.translation;
      const collection = route.pattern.exec(path)?.[2];
      return collection === undefined ? undefined : route.perCollection.get(collection);
    },
  };
}

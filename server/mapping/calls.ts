import type * as v from 'valibot';
import { API_FAMILIES, type ApiCall } from '../../contract/catalog.ts';
import { sync } from '../../contract/catalog-kinds.ts';
import { SYNC_COLLECTIONS, SyncRecordSchemas, syncUpsertSchema } from '../../contract/schemas/sync-db.ts';
import { SHAPES } from '../../contract/shapes.ts';
import type { UpstreamMapping } from './mapping-file.ts';
import { containsFields, type Node, type ObjectNode, shapeTree } from './shape-tree.ts';

/** What one call needs translated; a call the mapping does not touch has none (and is streamed as before). */
export interface CallTranslation {
  answer?: Node;
  body?: Node;
  /** The object the `filter`/`where` query values speak about (X of an answer X or X[]). */
  filter?: ObjectNode;
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

/** The shape whose names a body takes: its own mapping, XCreate/XUpdate/XPatch -> X, else the call's answer shape. */
function bodyShape(body: string, answer: string | undefined, mapping: UpstreamMapping): string | undefined {
  if (mapping.has(body)) return body;
  const schema = SHAPES.get(body);
  if (!schema) return undefined;
  const named = /^(.+?)(?:Create|Update|Patch|Upsert)$/.exec(body)?.[1];
  const candidates = [named, answer && baseOf(answer)].filter((name): name is string => !!name && name !== 'file');
  return candidates.find((name) => containsFields(name, schema));
}

function translationOf(call: ApiCall, mapping: UpstreamMapping, answerSchema?: v.GenericSchema, bodySchema?: v.GenericSchema): CallTranslation | undefined {
  const result: CallTranslation = {};
  if (call.answer && call.answer !== 'file') {
    const base = baseOf(call.answer);
    const schema = answerSchema ?? SHAPES.get(base);
    const node = schema && shapeTree(schema, mapping, base);
    if (node) {
      result.answer = call.answer.endsWith('[]') ? { type: 'array', item: node } : node;
      if (call.query?.startsWith('filter') && node.type === 'object' && node.entity) result.filter = node;
    }
  }
  if (call.body) {
    const schema = bodySchema ?? SHAPES.get(call.body);
    const node = schema && shapeTree(schema, mapping, bodyShape(call.body, call.answer, mapping));
    if (node) result.body = node;
  }
  return result.answer || result.body ? result : undefined;
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

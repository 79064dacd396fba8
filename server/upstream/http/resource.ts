import { Router, type Request, type RequestHandler } from 'express';
import * as v from 'valibot';
import type { SelectQueryBuilder } from 'kysely';
import type { Upstream } from '../context.ts';
import { isUniqueViolation, type Database } from '../db/index.ts';
import { newId } from '../lib/secrets.ts';
import { currentCoach, requireAuth, type SessionCoach } from './auth.ts';
import { conflict, forbidden, notFound, validationFailed } from './errors.ts';
import { parseFilter, whereExpression, type FieldMap } from './filter.ts';
import { validate } from './validate.ts';
import { param } from './params.ts';

type Row = Record<string, unknown> & { id: string };
type Op = 'create' | 'update' | 'delete';
export type AnyQuery = SelectQueryBuilder<any, any, any>;

/** Who may read and write which rows of a resource. Every method may throw 403 itself. */
export interface AccessRule {
  /** Narrows list queries to the rows the coach may see. */
  scopeList(ctx: Upstream, coach: SessionCoach, query: AnyQuery): AnyQuery;
  canRead(ctx: Upstream, coach: SessionCoach, row: Row): Promise<boolean> | boolean;
  /** `row` is the stored row (update/delete) or the row about to be inserted (create). */
  canWrite(ctx: Upstream, coach: SessionCoach, row: Row, op: Op): Promise<boolean> | boolean;
  /**
   * Optional early answer for rules that do not depend on the row: checked before the body is validated
   * or the row loaded, so a caller without the right gets 403, never a 422 or 404 that hints at data.
   */
  canAttempt?(coach: SessionCoach, op: Op, id: string | undefined): boolean;
}

export interface WriteContext {
  ctx: Upstream;
  coach: SessionCoach;
  now: string;
  req: Request;
  /** The stored row for update/patch; undefined on create. */
  existing?: Row;
}

export interface ResourceDefinition {
  /** Collection path under /v2, e.g. '/devices'. */
  path: string;
  table: keyof Database & string;
  /** Stored fields that may appear in filter where/order, with their kind. */
  fields: FieldMap;
  /** Absent schemas make the resource read-only (GET list and GET id only). */
  createSchema?: v.GenericSchema;
  updateSchema?: v.GenericSchema;
  patchSchema?: v.GenericSchema;
  /** Answer schema of one item; every answer is checked against it before it leaves. */
  outputSchema: v.GenericSchema;
  access: AccessRule;
  /** Parsed input -> stored columns (encode JSON, add server fields). Runs for create, update and patch. */
  toRow(input: Record<string, unknown>, write: WriteContext): Promise<Record<string, unknown>> | Record<string, unknown>;
  /** Stored rows -> answers (decode JSON, join names). Batch so lists need one extra query, not one per row. */
  toOutput(rows: Row[], ctx: Upstream): Promise<unknown[]> | unknown[];
  /** Checks across fields and references after merging (422 via validationFailed). */
  check?(row: Row, write: WriteContext): Promise<void> | void;
  /** Message for a UNIQUE violation, naming the field. */
  uniqueField?: string;
  /** Default order when the filter has none (id is always the last tie-breaker). */
  defaultOrder?: { field: string; direction: 'asc' | 'desc' } | { field: string; direction: 'asc' | 'desc' }[];
}

/**
 * The generic resource: POST, GET list (filter + X-Total-Count), GET id, PUT, PATCH, DELETE for one table,
 * driven by schemas, a field map and an access rule. Everything behind requireAuth.
 */
export function resourceRoutes(ctx: Upstream, def: ResourceDefinition): Router {
  const router = Router();
  const { db } = ctx;
  const table = def.table;
  const itemPath = `${def.path}/:id`;
  const one = async (rows: Row[]) => checkOutput(def, (await def.toOutput(rows, ctx))[0]);

  async function load(id: string): Promise<Row> {
    const row = await db.selectFrom(table as never).selectAll().where('id' as never, '=', id as never).executeTakeFirst();
    if (!row) throw notFound(`Unknown ${def.path.slice(1)} id`);
    return row as Row;
  }

  const auth = requireAuth(ctx);

  router.get(def.path, auth, async (req, res) => {
    const coach = currentCoach(req);
    const filter = parseFilter(req.query as Record<string, unknown>, def.fields);
    let base = def.access.scopeList(ctx, coach, db.selectFrom(`${table}` as never) as AnyQuery);
    if (filter.where) base = base.where((eb) => whereExpression(eb, filter.where!, table));
    const counted = await base.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirst();
    let query = base.selectAll(table as never);
    const order = filter.order.length ? filter.order : [def.defaultOrder ?? []].flat();
    for (const o of order) query = query.orderBy(`${table}.${o.field}`, o.direction);
    if (!order.some((o) => o.field === 'id')) query = query.orderBy(`${table}.id`, 'asc');
    if (filter.limit !== undefined) query = query.limit(filter.limit);
    if (filter.skip) query = query.offset(filter.skip).$if(filter.limit === undefined, (q) => q.limit(2 ** 31 - 1));
    const rows = (await query.execute()) as Row[];
    const output = await def.toOutput(rows, ctx);
    res.set('X-Total-Count', String(Number(counted?.count ?? 0)));
    res.json(output.map((item) => checkOutput(def, item)));
  });

  router.get(itemPath, auth, async (req, res) => {
    const coach = currentCoach(req);
    const row = await load(param(req, 'id'));
    if (!(await def.access.canRead(ctx, coach, row))) throw forbidden();
    res.json(await one([row]));
  });

  if (!def.createSchema) {
    // Read-only resources: any write is a 405-like refusal in the contract's terms (403).
    router.all([def.path, itemPath], auth, (_req, _res) => {
      throw forbidden('This resource is read only', 'READ_ONLY');
    });
    return router;
  }

  async function save(req: Request, op: 'create' | 'update' | 'patch', existing?: Row) {
    const coach = currentCoach(req);
    const schema = op === 'create' ? def.createSchema! : op === 'update' ? def.updateSchema! : def.patchSchema!;
    const input = validate(schema, req.body) as Record<string, unknown>;
    const now = ctx.clock.now().toISOString();
    const write: WriteContext = { ctx, coach, now, req, existing };
    const columns = await def.toRow(input, write);
    const row = { ...(existing ?? { id: newId() }), ...columns } as Row;
    if ('updatedAt' in def.fields) row.updatedAt = now;
    if (op === 'create' && 'createdAt' in def.fields) row.createdAt = now;
    if (!(await def.access.canWrite(ctx, coach, row, op === 'create' ? 'create' : 'update'))) throw forbidden();
    await def.check?.(row, write);
    try {
      if (op === 'create') await db.insertInto(table as never).values(row as never).execute();
      else {
        const { id, ...rest } = row;
        await db.updateTable(table as never).set(rest as never).where('id' as never, '=', id as never).execute();
      }
    } catch (error) {
      if (isUniqueViolation(error)) {
        const field = def.uniqueField ?? 'id';
        throw conflict(`${field} is already taken`, 'ALREADY_EXISTS', [{ path: field, message: 'Already taken' }]);
      }
      throw error;
    }
    return one([(await load(row.id))]);
  }

  const attempt = (op: Op): RequestHandler => (req, _res, next) => {
    if (def.access.canAttempt && !def.access.canAttempt(currentCoach(req), op, op === 'create' ? undefined : param(req, 'id'))) throw forbidden();
    next();
  };

  router.post(def.path, auth, attempt('create'), async (req, res) => {
    res.status(201).json(await save(req, 'create'));
  });

  for (const [method, op] of [['put', 'update'], ['patch', 'patch']] as const) {
    router[method](itemPath, auth, attempt('update'), async (req, res) => {
      const coach = currentCoach(req);
      const existing = await load(param(req, 'id'));
      if (!(await def.access.canWrite(ctx, coach, existing, 'update'))) throw forbidden();
      res.json(await save(req, op, existing));
    });
  }

  router.delete(itemPath, auth, attempt('delete'), async (req, res) => {
    const coach = currentCoach(req);
    const existing = await load(param(req, 'id'));
    if (!(await def.access.canWrite(ctx, coach, existing, 'delete'))) throw forbidden();
    await db.deleteFrom(table as never).where('id' as never, '=', param(req, 'id') as never).execute();
    res.status(204).end();
  });

  return router;
}

function checkOutput(def: ResourceDefinition, item: unknown): unknown {
  const result = v.safeParse(def.outputSchema, item);
  // An answer that breaks its own schema is a bug here, not the caller's fault: 500, logged by the handler.
  if (!result.success) throw new Error(`Answer of ${def.path} does not match its schema: ${v.summarize(result.issues)}`);
  return result.output;
}

/** 422 naming a field whose id points nowhere. */
export async function assertReference(ctx: Upstream, table: keyof Database & string, id: string | null | undefined, path: string) {
  if (id === null || id === undefined) return;
  const found = await ctx.db.selectFrom(table as never).select('id' as never).where('id' as never, '=', id as never).executeTakeFirst();
  if (!found) throw validationFailed([{ path, message: 'Unknown id' }]);
}

import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Upstream } from '../context.ts';
import { currentCoach, requireAuth } from '../http/auth.ts';
import { conflict, forbidden, notFound, preconditionFailed } from '../http/errors.ts';
import { parseFilter } from '../http/filter.ts';
import { listPage } from '../http/list-page.ts';
import { param } from '../http/params.ts';
import { validate } from '../http/validate.ts';
import { newId } from '../lib/secrets.ts';
import { etagOf, nextVersion, parseIfMatch, versionMatches } from '../lib/versions.ts';
import { inTurn } from '../lib/record-lock.ts';
import { checkColumns, checkOutput } from './checks.ts';
import type { AnyQuery, Op, ResourceDefinition, Row, WriteContext } from './definition.ts';
import { hideGone, isGone } from './soft-delete.ts';
import { deleteRow, insertRow, updateRow } from './writes.ts';

/** A write that lost the race this many times in a row gives up with 409 instead of looping. */
const MAX_WRITE_ATTEMPTS = 8;

const writeConflict = () => conflict('The record is being changed by others at this moment; try again', 'WRITE_CONFLICT');

/**
 * The generic resource: POST, GET list (filter + X-Total-Count), GET id, PUT, PATCH, DELETE for one table,
 * driven by schemas, a field map and an access rule. Everything behind requireAuth.
 *
 * Writes never lose a concurrent change. PATCH stores only the columns it was given (plus what follows from
 * them); every write of a table with `updatedAt` is a compare-and-swap on that version (lib/versions.ts): when
 * another write came in between, the row is read again and the change re-applied to it. A write with If-Match
 * of a version that is no longer stored is not re-applied but answered 412 with the current record. Answers of
 * one record carry the version as ETag. Each change is written to the audit log in the same transaction.
 */
export function resourceRoutes(ctx: Upstream, def: ResourceDefinition): Router {
  const router = Router();
  const r = recordsOf(ctx, def);
  const auth = requireAuth(ctx);
  router.get(def.path, auth, listHandler(ctx, def));
  router.get(r.itemPath, auth, async (req, res) => {
    const coach = currentCoach(req);
    const row = await r.load(param(req, 'id'));
    if (isGone(def.softDelete, row) && !def.softDelete!.visibleTo(coach)) throw r.unknown();
    if (!(await def.access.canRead(ctx, coach, row))) throw forbidden();
    await r.send(res, row);
  });
  if (!def.createSchema) {
    // Read-only resources: any write is a 405-like refusal in the contract's terms (403).
    router.all([def.path, r.itemPath], auth, () => {
      throw forbidden('This resource is read only', 'READ_ONLY');
    });
    return router;
  }
  const attempt =
    (op: Op): RequestHandler =>
    (req, _res, next) => {
      if (def.access.canAttempt && !def.access.canAttempt(currentCoach(req), op, op === 'create' ? undefined : param(req, 'id'))) throw forbidden();
      next();
    };
  router.post(def.path, auth, attempt('create'), createHandler(ctx, def, r));
  router.put(r.itemPath, auth, attempt('update'), updateHandler(ctx, def, r, def.updateSchema!));
  router.patch(r.itemPath, auth, attempt('update'), updateHandler(ctx, def, r, def.patchSchema!));
  router.delete(r.itemPath, auth, attempt('delete'), deleteHandler(ctx, def, r));
  return router;
}

type Records = ReturnType<typeof recordsOf>;

/** Reading one record of the resource, its version, and answering with it. */
function recordsOf(ctx: Upstream, def: ResourceDefinition) {
  const versioned = Object.hasOwn(def.fields, 'updatedAt');
  const unknown = () => notFound(`Unknown ${def.path.slice(1)} id`);
  const versionOf = (row: Row) => (versioned ? (row.updatedAt as string) : undefined);
  const answerOf = async (row: Row) => checkOutput(def, (await def.toOutput([row], ctx))[0]);
  const load = async (id: string): Promise<Row> => {
    const row = (await ctx.db
      .selectFrom(def.table as never)
      .selectAll()
      .where('id' as never, '=', id as never)
      .executeTakeFirst()) as Row | undefined;
    if (!row) throw unknown();
    return row;
  };
  return {
    itemPath: `${def.path}/:id`,
    versioned,
    versionOf,
    unknown,
    load,
    /** The row a write changes: a soft-deleted one is gone (404), whoever asks. */
    async loadLive(id: string): Promise<Row> {
      const row = await load(id);
      if (isGone(def.softDelete, row)) throw unknown();
      return row;
    },
    /** One record as the answer, its version as ETag. */
    async send(res: Response, row: Row, status = 200): Promise<void> {
      const version = versionOf(row);
      if (version) res.set('ETag', etagOf(version));
      res.status(status).json(await answerOf(row));
    },
    /** 412 with the record as it is now (404 when it is gone meanwhile). */
    async stale(id: string): Promise<never> {
      const current = await load(id);
      const version = versionOf(current);
      throw preconditionFailed(await answerOf(current), version ? etagOf(version) : undefined);
    },
    ifMatchOf: (req: Request) => (versioned ? parseIfMatch(req.headers['if-match']) : undefined),
  };
}

function listHandler(ctx: Upstream, def: ResourceDefinition): RequestHandler {
  return async (req, res) => {
    const coach = currentCoach(req);
    const filter = parseFilter(req.query as Record<string, unknown>, def.fields);
    const all = ctx.db.selectFrom(def.table as never) as AnyQuery;
    const scoped = hideGone(def.softDelete, def.table, coach, def.access.scopeList(ctx, coach, all), filter.where);
    const scope = def.access.scopeOf?.(coach);
    const { rows, total } = await listPage(ctx.db, scoped, def.table, filter, [def.defaultOrder ?? []].flat(), scope);
    const output = await def.toOutput(rows, ctx);
    if (total !== undefined) res.set('X-Total-Count', String(total));
    res.json(output.map((item) => checkOutput(def, item)));
  };
}

function createHandler(ctx: Upstream, def: ResourceDefinition, r: Records): RequestHandler {
  return async (req, res) => {
    const coach = currentCoach(req);
    const input = validate(def.createSchema!, req.body) as Record<string, unknown>;
    const now = ctx.clock.now().toISOString();
    const write: WriteContext = { ctx, coach, now, req };
    const row = { id: newId(), ...(await def.toRow(input, write)) } as Row;
    if (r.versioned) row.updatedAt = now;
    if (Object.hasOwn(def.fields, 'createdAt')) row.createdAt = now;
    if (!(await def.access.canWrite(ctx, coach, row, 'create'))) throw forbidden();
    await def.check?.(row, write);
    checkColumns(def, row);
    await insertRow(def, row, write);
    await def.afterWrite?.({ action: 'create', after: row }, write);
    await r.send(res, await r.load(row.id), 201);
  };
}

/** PUT and PATCH: only the columns the request sets are written, as a compare-and-swap on the version. */
function updateHandler(ctx: Upstream, def: ResourceDefinition, r: Records, schema: NonNullable<ResourceDefinition['updateSchema']>): RequestHandler {
  return async (req, res) => {
    const coach = currentCoach(req);
    const id = param(req, 'id');
    const ifMatch = r.ifMatchOf(req);
    let input: Record<string, unknown> | undefined;
    await inTurn(`${def.table}:${id}`, async () => {
      for (let tries = 0; tries < MAX_WRITE_ATTEMPTS; tries++) {
        const existing = await r.loadLive(id);
        if (!(await def.access.canWrite(ctx, coach, existing, 'update'))) throw forbidden();
        if (!versionMatches(ifMatch, r.versionOf(existing))) await r.stale(id);
        input ??= validate(schema, req.body) as Record<string, unknown>;
        const at = ctx.clock.now();
        const write: WriteContext = { ctx, coach, now: at.toISOString(), req, existing };
        // Only what this request sets: a concurrent change of another field stays as it is.
        const { id: _id, ...changes } = await def.toRow(input, write);
        if (Object.entries(changes).every(([key, value]) => existing[key] === value)) {
          // Nothing changes (a PATCH of {} or of the values already stored): no write, the version stays, no audit entry.
          await r.send(res, existing);
          return;
        }
        if (r.versioned) changes.updatedAt = nextVersion(r.versionOf(existing), at);
        const row = { ...existing, ...changes } as Row;
        if (!(await def.access.canWrite(ctx, coach, row, 'update'))) throw forbidden();
        await def.check?.(row, write);
        checkColumns(def, changes);
        if (await updateRow(def, existing, changes, row, write)) {
          await def.afterWrite?.({ action: 'update', before: existing, after: row }, write);
          await r.send(res, await r.load(id));
          return;
        }
        // Someone wrote in between: a write that named its version must not be re-applied to theirs.
        if (ifMatch !== undefined) await r.stale(id);
      }
      throw writeConflict();
    });
  };
}

function deleteHandler(ctx: Upstream, def: ResourceDefinition, r: Records): RequestHandler {
  return async (req, res) => {
    const coach = currentCoach(req);
    const id = param(req, 'id');
    const ifMatch = r.ifMatchOf(req);
    await inTurn(`${def.table}:${id}`, async () => {
      for (let tries = 0; tries < MAX_WRITE_ATTEMPTS; tries++) {
        const existing = await r.loadLive(id);
        const write: WriteContext = { ctx, coach, now: ctx.clock.now().toISOString(), req, existing };
        if (!(await def.access.canWrite(ctx, coach, existing, 'delete'))) throw forbidden();
        if (!versionMatches(ifMatch, r.versionOf(existing))) await r.stale(id);
        // After the record's last version, so a history sorted by time ends with the deletion.
        const at = r.versioned ? nextVersion(r.versionOf(existing), ctx.clock.now()) : ctx.clock.now().toISOString();
        if (await deleteRow(def, existing, at, write)) {
          await def.afterWrite?.({ action: 'delete', before: existing }, write);
          res.status(204).end();
          return;
        }
        if (ifMatch !== undefined) await r.stale(id);
      }
      throw writeConflict();
    });
  };
}

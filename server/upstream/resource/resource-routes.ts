import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Upstream } from '../context.ts';
import { newId } from '../lib/secrets.ts';
import { currentCoach, requireAuth, type SessionCoach } from '../http/auth.ts';
import { conflict, forbidden, notFound, preconditionFailed } from '../http/errors.ts';
import { audit } from '../features/audit/record.ts';
import { etagOf, nextVersion, parseIfMatch, versionMatches } from '../lib/versions.ts';
import { parseFilter } from '../http/filter.ts';
import { listPage } from '../http/list-page.ts';
import { validate } from '../http/validate.ts';
import { param } from '../http/params.ts';
import { hideGone, isGone } from './soft-delete.ts';
import { checkColumns, checkOutput } from './checks.ts';
import type { AnyQuery, Op, ResourceDefinition, Row, WriteContext } from './definition.ts';
import { auditEntry, storeUnique } from './writes.ts';

export type { AccessRule, AnyQuery, ResourceDefinition, WriteContext } from './definition.ts';
export { assertReference } from './checks.ts';

/** A write that lost the race this many times in a row gives up with 409 instead of looping. */
const MAX_WRITE_ATTEMPTS = 8;

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
  const { db } = ctx;
  const table = def.table;
  const itemPath = `${def.path}/:id`;
  const versioned = Object.hasOwn(def.fields, 'updatedAt');
  const one = async (rows: Row[]) => checkOutput(def, (await def.toOutput(rows, ctx))[0]);

  async function find(id: string): Promise<Row | undefined> {
    return (await db
      .selectFrom(table as never)
      .selectAll()
      .where('id' as never, '=', id as never)
      .executeTakeFirst()) as Row | undefined;
  }
  async function load(id: string): Promise<Row> {
    const row = await find(id);
    if (!row) throw notFound(`Unknown ${def.path.slice(1)} id`);
    return row;
  }
  /** The row a write changes: a soft-deleted one is gone (404), whoever asks. */
  async function loadLive(id: string): Promise<Row> {
    const row = await load(id);
    if (isGone(def.softDelete, row)) throw notFound(`Unknown ${def.path.slice(1)} id`);
    return row;
  }
  const versionOf = (row: Row) => (versioned ? (row.updatedAt as string) : undefined);
  const withVersion = (res: Response, row: Row) => {
    const version = versionOf(row);
    if (version) res.set('ETag', etagOf(version));
  };
  /** 412 with the record as it is now (404 when it is gone meanwhile). */
  async function stale(id: string): Promise<never> {
    const current = await load(id);
    const version = versionOf(current);
    throw preconditionFailed(await one([current]), version ? etagOf(version) : undefined);
  }
  const ifMatchOf = (req: Request) => (versioned ? parseIfMatch(req.headers['if-match']) : undefined);

  const auth = requireAuth(ctx);

  router.get(def.path, auth, async (req, res) => {
    const coach = currentCoach(req);
    const filter = parseFilter(req.query as Record<string, unknown>, def.fields);
    const scoped = hideGone(def.softDelete, table, coach, def.access.scopeList(ctx, coach, db.selectFrom(`${table}` as never) as AnyQuery), filter.where);
    const { rows, total } = await listPage(scoped, table, filter, [def.defaultOrder ?? []].flat());
    const output = await def.toOutput(rows, ctx);
    res.set('X-Total-Count', String(total));
    res.json(output.map((item) => checkOutput(def, item)));
  });

  router.get(itemPath, auth, async (req, res) => {
    const coach = currentCoach(req);
    const row = await load(param(req, 'id'));
    if (isGone(def.softDelete, row) && !def.softDelete!.visibleTo(coach)) throw notFound(`Unknown ${def.path.slice(1)} id`);
    if (!(await def.access.canRead(ctx, coach, row))) throw forbidden();
    withVersion(res, row);
    res.json(await one([row]));
  });

  if (!def.createSchema) {
    // Read-only resources: any write is a 405-like refusal in the contract's terms (403).
    router.all([def.path, itemPath], auth, (_req, _res) => {
      throw forbidden('This resource is read only', 'READ_ONLY');
    });
    return router;
  }

  const auditOf = (action: 'create' | 'update' | 'delete', coach: SessionCoach, at: string, before: Row | undefined, after: Row | undefined) =>
    auditEntry(def, action, coach, at, before, after);
  const store = <T>(write: () => Promise<T>) => storeUnique(def, write);

  const attempt =
    (op: Op): RequestHandler =>
    (req, _res, next) => {
      if (def.access.canAttempt && !def.access.canAttempt(currentCoach(req), op, op === 'create' ? undefined : param(req, 'id'))) throw forbidden();
      next();
    };

  router.post(def.path, auth, attempt('create'), async (req, res) => {
    const coach = currentCoach(req);
    const input = validate(def.createSchema!, req.body) as Record<string, unknown>;
    const now = ctx.clock.now().toISOString();
    const write: WriteContext = { ctx, coach, now, req };
    const row = { id: newId(), ...(await def.toRow(input, write)) } as Row;
    if (versioned) row.updatedAt = now;
    if (Object.hasOwn(def.fields, 'createdAt')) row.createdAt = now;
    if (!(await def.access.canWrite(ctx, coach, row, 'create'))) throw forbidden();
    await def.check?.(row, write);
    checkColumns(def, row);
    await store(() =>
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto(table as never)
          .values(row as never)
          .execute();
        const entry = auditOf('create', coach, now, undefined, row);
        if (entry) await audit(trx, entry);
        await def.onWrite?.({ action: 'create', after: row }, trx, write);
      }),
    );
    await def.afterWrite?.({ action: 'create', after: row }, write);
    const created = await load(row.id);
    withVersion(res, created);
    res.status(201).json(await one([created]));
  });

  for (const [method, op] of [
    ['put', 'update'],
    ['patch', 'patch'],
  ] as const) {
    router[method](itemPath, auth, attempt('update'), async (req, res) => {
      const coach = currentCoach(req);
      const id = param(req, 'id');
      const ifMatch = ifMatchOf(req);
      const schema = op === 'update' ? def.updateSchema! : def.patchSchema!;
      let input: Record<string, unknown> | undefined;
      for (let tries = 0; tries < MAX_WRITE_ATTEMPTS; tries++) {
        const existing = await loadLive(id);
        if (!(await def.access.canWrite(ctx, coach, existing, 'update'))) throw forbidden();
        if (!versionMatches(ifMatch, versionOf(existing))) await stale(id);
        input ??= validate(schema, req.body) as Record<string, unknown>;
        const at = ctx.clock.now();
        const write: WriteContext = { ctx, coach, now: at.toISOString(), req, existing };
        // Only what this request sets: a concurrent change of another field stays as it is.
        const { id: _id, ...changes } = await def.toRow(input, write);
        if (Object.entries(changes).every(([key, value]) => existing[key] === value)) {
          // Nothing changes (a PATCH of {} or of the values already stored): no write, the version stays, no audit entry.
          withVersion(res, existing);
          res.json(await one([existing]));
          return;
        }
        if (versioned) changes.updatedAt = nextVersion(versionOf(existing), at);
        const row = { ...existing, ...changes } as Row;
        if (!(await def.access.canWrite(ctx, coach, row, 'update'))) throw forbidden();
        await def.check?.(row, write);
        checkColumns(def, changes);
        const done = await store(() =>
          db.transaction().execute(async (trx) => {
            let update = trx
              .updateTable(table as never)
              .set(changes as never)
              .where('id' as never, '=', id as never);
            if (versioned) update = update.where('updatedAt' as never, '=', versionOf(existing) as never);
            const result = await update.executeTakeFirst();
            if (Number(result.numUpdatedRows) === 0) return false;
            const entry = auditOf('update', coach, (changes.updatedAt as string | undefined) ?? write.now, existing, row);
            if (entry) await audit(trx, entry);
            await def.onWrite?.({ action: 'update', before: existing, after: row }, trx, write);
            return true;
          }),
        );
        if (done) {
          await def.afterWrite?.({ action: 'update', before: existing, after: row }, write);
          const stored = await load(id);
          withVersion(res, stored);
          res.json(await one([stored]));
          return;
        }
        // Someone wrote in between: a write that named its version must not be re-applied to theirs.
        if (ifMatch !== undefined) await stale(id);
      }
      throw conflict('The record is being changed by others at this moment; try again', 'WRITE_CONFLICT');
    });
  }

  router.delete(itemPath, auth, attempt('delete'), async (req, res) => {
    const coach = currentCoach(req);
    const id = param(req, 'id');
    const ifMatch = ifMatchOf(req);
    for (let tries = 0; tries < MAX_WRITE_ATTEMPTS; tries++) {
      const existing = await loadLive(id);
      const write: WriteContext = { ctx, coach, now: ctx.clock.now().toISOString(), req, existing };
      if (!(await def.access.canWrite(ctx, coach, existing, 'delete'))) throw forbidden();
      if (!versionMatches(ifMatch, versionOf(existing))) await stale(id);
      // After the record's last version, so a history sorted by time ends with the deletion.
      const at = versioned ? nextVersion(versionOf(existing), ctx.clock.now()) : ctx.clock.now().toISOString();
      const soft = def.softDelete;
      const done = await db.transaction().execute(async (trx) => {
        // Compare-and-swap here too, so the audit log keeps exactly what was deleted.
        const version = versionOf(existing) as never;
        const changed = soft
          ? (
              await trx
                .updateTable(table as never)
                .set({ [soft.at]: at, [soft.by]: coach.id, ...(versioned ? { updatedAt: at } : {}) } as never)
                .where('id' as never, '=', id as never)
                .$if(versioned, (q) => q.where('updatedAt' as never, '=', version))
                .executeTakeFirst()
            ).numUpdatedRows
          : (
              await trx
                .deleteFrom(table as never)
                .where('id' as never, '=', id as never)
                .$if(versioned, (q) => q.where('updatedAt' as never, '=', version))
                .executeTakeFirst()
            ).numDeletedRows;
        if (Number(changed) === 0) return false;
        const entry = auditOf('delete', coach, at, existing, undefined);
        if (entry) await audit(trx, entry);
        await def.onWrite?.({ action: 'delete', before: existing }, trx, write);
        return true;
      });
      if (done) {
        await def.afterWrite?.({ action: 'delete', before: existing }, write);
        res.status(204).end();
        return;
      }
      if (ifMatch !== undefined) await stale(id);
    }
    throw conflict('The record is being changed by others at this moment; try again', 'WRITE_CONFLICT');
  });

  return router;
}

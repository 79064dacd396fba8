import { isUniqueViolation } from '../db/index.ts';
import { conflict } from '../http/errors.ts';
import { audit, changesBetween } from '../features/audit/record.ts';
import type { ResourceDefinition, Row, WriteContext } from './definition.ts';

/*
 * The statements of a resource's writes, each in one transaction with its audit-log entry and the resource's
 * onWrite hook, so a change is never stored without what belongs to it. Updates and deletes of a versioned
 * table are compare-and-swaps on `updatedAt`: false means another write came first.
 */

/** The audit-log entry of one write (none when the resource is not audited); an update that changed nothing writes none. */
async function auditWrite(
  def: ResourceDefinition,
  trx: Parameters<typeof audit>[0],
  action: 'create' | 'update' | 'delete',
  write: WriteContext,
  at: string,
  before: Row | undefined,
  after: Row | undefined,
): Promise<void> {
  const spec = def.audit;
  if (!spec) return;
  const row = (after ?? before)!;
  await audit(trx, {
    at,
    actorId: write.coach.id,
    action,
    entity: spec.entity,
    entityId: row.id,
    patientId: spec.patientIdOf(row),
    changes: changesBetween(spec.entity, before, after),
  });
}

/** Runs one write of the resource; a UNIQUE violation becomes 409 naming the field. */
async function storeUnique<T>(def: ResourceDefinition, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) {
      const field = def.uniqueField ?? 'id';
      throw conflict(`${field} is already taken`, 'ALREADY_EXISTS', [{ path: field, message: 'Already taken' }]);
    }
    throw error;
  }
}

export async function insertRow(def: ResourceDefinition, row: Row, write: WriteContext): Promise<void> {
  await storeUnique(def, () =>
    write.ctx.db.transaction().execute(async (trx) => {
      await trx
        .insertInto(def.table as never)
        .values(row as never)
        .execute();
      await auditWrite(def, trx, 'create', write, write.now, undefined, row);
      await def.onWrite?.({ action: 'create', after: row }, trx, write);
    }),
  );
}

/** Stores `changes` (the columns the request set) on the version `existing` was read at. */
export async function updateRow(def: ResourceDefinition, existing: Row, changes: Record<string, unknown>, row: Row, write: WriteContext): Promise<boolean> {
  const versioned = Object.hasOwn(def.fields, 'updatedAt');
  return storeUnique(def, () =>
    write.ctx.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable(def.table as never)
        .set(changes as never)
        .where('id' as never, '=', existing.id as never)
        .$if(versioned, (q) => q.where('updatedAt' as never, '=', existing.updatedAt as never))
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await auditWrite(def, trx, 'update', write, (changes.updatedAt as string | undefined) ?? write.now, existing, row);
      await def.onWrite?.({ action: 'update', before: existing, after: row }, trx, write);
      return true;
    }),
  );
}

/** Removes the row, or marks it deleted at `at` for a resource with soft deletion. */
export async function deleteRow(def: ResourceDefinition, existing: Row, at: string, write: WriteContext): Promise<boolean> {
  const versioned = Object.hasOwn(def.fields, 'updatedAt');
  const soft = def.softDelete;
  return write.ctx.db.transaction().execute(async (trx) => {
    // Compare-and-swap here too, so the audit log keeps exactly what was deleted.
    const version = existing.updatedAt as never;
    const changed = soft
      ? (
          await trx
            .updateTable(def.table as never)
            .set({ [soft.at]: at, [soft.by]: write.coach.id, ...(versioned ? { updatedAt: at } : {}) } as never)
            .where('id' as never, '=', existing.id as never)
            .$if(versioned, (q) => q.where('updatedAt' as never, '=', version))
            .executeTakeFirst()
        ).numUpdatedRows
      : (
          await trx
            .deleteFrom(def.table as never)
            .where('id' as never, '=', existing.id as never)
            .$if(versioned, (q) => q.where('updatedAt' as never, '=', version))
            .executeTakeFirst()
        ).numDeletedRows;
    if (Number(changed) === 0) return false;
    await auditWrite(def, trx, 'delete', write, at, existing, undefined);
    await def.onWrite?.({ action: 'delete', before: existing }, trx, write);
    return true;
  });
}

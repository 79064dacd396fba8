import type { Kysely } from 'kysely';
import type { CoachTable, Database } from '../../db/types.ts';
import { audit, changesBetween } from '../audit/record.ts';
import { nextVersion } from '../../lib/versions.ts';

/**
 * Changes some columns of a coach outside the coach resource (password, email verification), with the version
 * moved on and an audit entry in the same transaction.
 */
export async function updateCoachColumns(
  db: Kysely<Database>,
  coachId: string,
  actorId: string | null,
  now: Date,
  changes: Partial<CoachTable>,
): Promise<void> {
  const before = await db.selectFrom('coaches').selectAll().where('id', '=', coachId).executeTakeFirstOrThrow();
  const updatedAt = nextVersion(before.updatedAt, now);
  await db
    .updateTable('coaches')
    .set({ ...changes, updatedAt })
    .where('id', '=', coachId)
    .execute();
  await audit(db, {
    at: updatedAt,
    actorId,
    action: 'update',
    entity: 'coach',
    entityId: coachId,
    patientId: null,
    changes: changesBetween('coach', { ...before }, { ...before, ...changes }),
  });
}

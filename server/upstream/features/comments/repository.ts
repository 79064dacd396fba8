import type { Db } from '../../db/index.ts';
import { insertChunked } from '../../db/insert-chunked.ts';

/** "First Last" of each coach id that still exists (authors and deleters of notes). */
export async function coachNames(db: Db, ids: string[]): Promise<Map<string, string>> {
  const rows = ids.length ? await db.selectFrom('coaches').select(['id', 'firstName', 'lastName']).where('id', 'in', ids).execute() : [];
  return new Map(rows.map((a) => [a.id, `${a.firstName} ${a.lastName}`]));
}

/** Demo data: notes and notes from outside, stored as they are. */
export async function insertComments(db: Db, rows: object[]): Promise<void> {
  await insertChunked(db, 'comments', rows);
}
export async function insertExternalComments(db: Db, rows: object[]): Promise<void> {
  await insertChunked(db, 'external_comments', rows);
}

import { createHmac, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { readSetting } from '../settings/repository.ts';

const PSEUDONYM_SETTING = 'statistics_pseudonym_key';
/**
 * The instance's secret for statistics pseudonyms (random, made on first use, never answered by any call):
 * a pseudonym stays the same across periods and pages, and cannot be turned back into a patient id.
 */
export async function pseudonymKey(db: Db): Promise<string> {
  const stored = await readSetting<string | null>(db, PSEUDONYM_SETTING, null);
  if (typeof stored === 'string' && stored) return stored;
  await db
    .insertInto('settings')
    .values({ key: PSEUDONYM_SETTING, value: JSON.stringify(randomBytes(32).toString('hex')) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return readSetting<string>(db, PSEUDONYM_SETTING, '');
}

/** The detail table's row id of a patient: an HMAC of its id, so it opens nothing. */
export function rowIdOf(key: string, patientId: string): string {
  return `pseudo-${createHmac('sha256', key).update(patientId).digest('hex').slice(0, 16)}`;
}

const FILL_BATCH = 500;

/**
 * Stores the row id of every patient that has none yet (new since the last statistics call), so the database can
 * order and page by it. Finding none is one index probe; a patient table without any (just migrated) is filled once.
 */
export async function fillRowIds(db: Db, secret: () => Promise<string>): Promise<void> {
  let key: string | undefined;
  for (;;) {
    const missing = await db.selectFrom('patients').select('id').where('statisticsRowId', 'is', null).limit(FILL_BATCH).execute();
    if (missing.length === 0) return;
    key ??= await secret();
    // One statement per batch: a table of (id, row id) pairs joined into the update.
    const pairs = sql.join(missing.map(({ id }) => sql`(${id}, ${rowIdOf(key as string, id)})`));
    await sql`with v(id, r) as (values ${pairs})
      update patients set "statisticsRowId" = (select r from v where v.id = patients.id)
      where patients.id in (select id from v) and patients."statisticsRowId" is null`.execute(db);
  }
}

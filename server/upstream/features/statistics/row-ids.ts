import { createHmac, randomBytes } from 'node:crypto';
import { PostgresAdapter, sql } from 'kysely';
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
/** The index that starts with patients.statisticsRowId (migration 124; 120's had it alone). */
export const ROW_ID_INDEX = 'patients_statistics_row_period';

/**
 * Stores the row id of every patient that has none yet (new since the last statistics call), so the database can
 * order and page by it. Finding none is one index probe; a patient table without any (just migrated) is filled once.
 */
export async function fillRowIds(db: Db, secret: () => Promise<string>): Promise<void> {
  let key: string | undefined;
  let filled = 0;
  for (;;) {
    const missing = await db.selectFrom('patients').select('id').where('statisticsRowId', 'is', null).limit(FILL_BATCH).execute();
    if (missing.length === 0) break;
    key ??= await secret();
    // One statement per batch: a table of (id, row id) pairs joined into the update.
    const pairs = sql.join(missing.map(({ id }) => sql`(${id}, ${rowIdOf(key as string, id)})`));
    await sql`with v(id, r) as (values ${pairs})
      update patients set "statisticsRowId" = (select r from v where v.id = patients.id)
      where patients.id in (select id from v) and patients."statisticsRowId" is null`.execute(db);
    // The figure totals walk in the same order (migration 126).
    await sql`with v(id, r) as (values ${pairs})
      update patient_figure_totals set "statisticsRowId" = (select r from v where v.id = patient_figure_totals."patientId")
      where patient_figure_totals."patientId" in (select id from v)`.execute(db);
    filled += missing.length;
  }
  if (filled >= FILL_BATCH) await refreshStatistics(db);
}

/**
 * The planner's statistics of the row ids, after a fill of many: taken while the column was empty they say every
 * patient has the same row id, and the database then reads the whole table to find the patients without one and the
 * patients of a page (at 100,000 patients 45 instead of 5 ms a page, an export of all 20 s).
 */
async function refreshStatistics(db: Db): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`analyze patients ("statisticsRowId")`.execute(db);
    return;
  }
  await sql`analyze ${sql.id(ROW_ID_INDEX)}`.execute(db);
  // The readers keep their prepared statements (db/sqlite-worker.ts), and with them the plans made from the old
  // statistics, until the schema changes: a table made and dropped again changes it, and they plan anew. Measured at
  // 100,000 patients: without it the pages stayed at 30 ms and the probe for missing row ids at 14 ms; with it 3-6
  // and 0.3 ms.
  await sql`create table planner_statistics_changed (x)`.execute(db);
  await sql`drop table planner_statistics_changed`.execute(db);
}

import { type Kysely, PostgresAdapter, sql } from 'kysely';

/*
 * PostgreSQL: what a name search needs to choose between the trigram index's matches, sorted, and a walk of the
 * name order (http/list-page.ts, searchPlan).
 * - search_trigram_counts: per three characters in a row, how many patients have them in a search key (any of the
 *   columns the search compares), kept by triggers on every write of a patient. A search's matches are at most the
 *   smallest count among its words' trigrams. (SQLite counts the matches in its FTS5 index, which has the entries
 *   alone; on PostgreSQL the trigram index is lossy and a count reads every matching row: 11 ms for 5,000.)
 * - the name order's index holds the other key columns too (INCLUDE), so a walk compares each row in the index
 *   without reading it: "sch" at 100,000 patients read 6,711 rows before its page, 7.8 ms from the table, 1.4 from
 *   the index. It replaces migration 106's index of the same order.
 */

export const TRIGRAM_COUNTS = 'search_trigram_counts';
const TABLE = TRIGRAM_COUNTS;
/** The triggers that keep the counts, one per kind of write (a bulk load turns them off and counts once after). */
export const TRIGRAM_COUNT_TRIGGERS = ['insert', 'delete', 'update'].map((event) => `patients_search_trigrams_${event}`);
const KEYS = ['lastNameKey', 'firstNameKey', 'lastNameSpelledKey', 'firstNameSpelledKey', 'patientCodeKey', 'phoneKey'];

/** Each patient of a table (or transition table) with each trigram of its keys once, counted `sign`. */
export function trigramsOf(table: string, sign: 1 | -1): string {
  const keys = KEYS.map((k) => `r."${k}"`).join(', ');
  return `SELECT DISTINCT r.id, substr(k, i, 3) AS trigram, ${sign} AS n FROM ${table} r
    CROSS JOIN LATERAL unnest(ARRAY[${keys}]) AS k CROSS JOIN LATERAL generate_series(1, length(k) - 2) AS i WHERE k IS NOT NULL`;
}

/** The rows of an update's transition table (`side`) whose keys the update changed. */
function keysChanged(side: 'old_rows' | 'new_rows'): string {
  const keys = (alias: string) => KEYS.map((k) => `${alias}."${k}"`).join(', ');
  return `(SELECT ${side === 'old_rows' ? 'o' : 'n'}.* FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE (${keys('o')}) IS DISTINCT FROM (${keys('n')}))`;
}

/** The counts of every patient, into the empty table. */
export const countAll = () => `INSERT INTO ${TABLE} (trigram, patients) SELECT trigram, sum(n) FROM (${trigramsOf('patients', 1)}) AS c GROUP BY trigram`;

async function triggers(db: Kysely<any>): Promise<void> {
  // Once per statement over its transition tables; rows are locked in trigram order, so two writers never wait for
  // each other crosswise, and a change that leaves a count as it was writes nothing.
  const apply = (changes: string) => `INSERT INTO ${TABLE} (trigram, patients)
    SELECT trigram, sum(n) FROM (${changes}) AS c GROUP BY trigram HAVING sum(n) <> 0 ORDER BY trigram
    ON CONFLICT (trigram) DO UPDATE SET patients = ${TABLE}.patients + excluded.patients`;
  const events: Record<string, { referencing: string; changes: string }> = {
    insert: { referencing: 'NEW TABLE AS new_rows', changes: trigramsOf('new_rows', 1) },
    delete: { referencing: 'OLD TABLE AS old_rows', changes: trigramsOf('old_rows', -1) },
    // Most updates of a patient change no key (the last data, the coach, a note): only those that do are read.
    update: {
      referencing: 'OLD TABLE AS old_rows NEW TABLE AS new_rows',
      changes: `${trigramsOf(keysChanged('old_rows'), -1)} UNION ALL ${trigramsOf(keysChanged('new_rows'), 1)}`,
    },
  };
  for (const [event, { referencing, changes }] of Object.entries(events)) {
    await sql
      .raw(`CREATE FUNCTION patients_search_trigrams_${event}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${apply(changes)}; RETURN NULL; END $$`)
      .execute(db);
    await sql
      .raw(`CREATE TRIGGER patients_search_trigrams_${event} AFTER ${event.toUpperCase()} ON patients REFERENCING ${referencing}
        FOR EACH STATEMENT EXECUTE FUNCTION patients_search_trigrams_${event}()`)
      .execute(db);
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql.raw(`CREATE TABLE ${TABLE} (trigram text COLLATE "C" PRIMARY KEY, patients integer NOT NULL)`).execute(db);
  await sql.raw(countAll()).execute(db);
  await triggers(db);
  const included = KEYS.filter((k) => k !== 'lastNameKey' && k !== 'firstNameKey')
    .map((k) => `"${k}"`)
    .join(', ');
  await sql.raw(`CREATE INDEX patients_name_search_walk ON patients ("lastNameKey", "firstNameKey", id) INCLUDE (${included})`).execute(db);
  await sql`drop index patients_name_key_order`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await db.schema.createIndex('patients_name_key_order').on('patients').columns(['lastNameKey', 'firstNameKey', 'id']).execute();
  await sql`drop index patients_name_search_walk`.execute(db);
  for (const event of ['insert', 'delete', 'update']) {
    await sql.raw(`DROP TRIGGER patients_search_trigrams_${event} ON patients`).execute(db);
    await sql.raw(`DROP FUNCTION patients_search_trigrams_${event}()`).execute(db);
  }
  await sql.raw(`DROP TABLE ${TABLE}`).execute(db);
}

import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { TRIGRAM_COUNTS } from './128-search-trigram-counts.ts';

/*
 * Per three characters in a row, the patients that have them in a name or code search key, in the name order
 * (last name key, first name key, id): a search's page in that order is a walk of one trigram's patients from the
 * start, comparing each, instead of every match sorted (SQLite's FTS5 and PostgreSQL's pg_trgm find the matches in
 * no order) or the whole name order walked up to where the matches are (a surname's matches all sit at one place
 * of it). "mar" matched 3,960 of 100,000 patients: sorting them cost as much more than at 10,000 as there were more
 * matches; its trigram's list gives the page's 26 rows after 26 entries at either size (http/trigram-walk.ts).
 *
 * The keys of the first and last name (as written and spelled out) and of the code: what a search of a word without
 * a digit compares. The phone number's key is left out (a word with a digit is looked up as before): its digits
 * would add about ten entries per patient. The name keys are never null (the names are NOT NULL and
 * db/sort-key-plugin.ts keys every write), so they can be part of the key; coalesce only guards the statement.
 * Kept by triggers on every write of a patient (SQLite: per row; PostgreSQL: per statement over the transition
 * tables, as migration 128). A bulk load fills it once after on PostgreSQL (db/bulk-load.ts). SQLite gets
 * search_trigram_counts too (PostgreSQL has it from migration 128), over these keys: which of a word's trigrams is
 * rarest, read instead of counted.
 */

export const TRIGRAM_ORDER = 'patient_trigram_order';
const TABLE = TRIGRAM_ORDER;
/** The key columns whose trigrams the table holds. */
export const TRIGRAM_ORDER_KEYS = ['lastNameKey', 'firstNameKey', 'lastNameSpelledKey', 'firstNameSpelledKey', 'patientCodeKey'];
/** PostgreSQL's triggers (a bulk load turns them off and fills the table once after). */
export const TRIGRAM_ORDER_TRIGGERS = ['insert', 'delete', 'update'].map((event) => `patients_trigram_order_${event}`);
/** SQLite: the positions a trigram can start at (a trigger cannot use a recursive CTE); keys are far shorter. */
const POSITIONS = 'trigram_positions';
const MAX_KEY_LENGTH = 1000;

const quoted = (columns: string[], prefix = '') => columns.map((c) => `${prefix}"${c}"`).join(', ');

/** PostgreSQL: each patient of a table (or transition table) with each trigram of its keys, once. */
export function orderEntriesOf(table: string): string {
  return `SELECT DISTINCT substr(k, i, 3) AS trigram, coalesce(r."lastNameKey", '') AS "lastNameKey",
      coalesce(r."firstNameKey", '') AS "firstNameKey", r.id
    FROM ${table} r CROSS JOIN LATERAL unnest(ARRAY[${quoted(TRIGRAM_ORDER_KEYS, 'r.')}]) AS k
    CROSS JOIN LATERAL generate_series(1, length(k) - 2) AS i WHERE k IS NOT NULL`;
}

/** Every patient's entries, into the empty table. */
export const fillAll = () => `INSERT INTO ${TABLE} (trigram, "lastNameKey", "firstNameKey", id) ${orderEntriesOf('patients')}`;

/** SQLite: the entries of one row (`row`: new or old) inside a trigger. */
function sqliteEntries(row: 'new' | 'old'): string {
  return `SELECT DISTINCT substr(keys.k, p.n, 3), coalesce(${row}."lastNameKey", ''), coalesce(${row}."firstNameKey", ''), ${row}.id
    FROM (${sqliteKeys(row)}) AS keys JOIN ${POSITIONS} p ON p.n <= length(keys.k) - 2 WHERE keys.k IS NOT NULL`;
}

/** SQLite: the covered keys of one row inside a trigger, one per row of the result (column k). */
const sqliteKeys = (row: 'new' | 'old') => TRIGRAM_ORDER_KEYS.map((k, i) => `${i === 0 ? 'SELECT' : 'UNION ALL SELECT'} ${row}."${k}" AS k`).join(' ');

async function sqliteUp(db: Kysely<any>): Promise<void> {
  await sql
    .raw(`CREATE TABLE ${TABLE} (trigram text NOT NULL, "lastNameKey" text NOT NULL, "firstNameKey" text NOT NULL, id text NOT NULL,
      PRIMARY KEY (trigram, "lastNameKey", "firstNameKey", id)) WITHOUT ROWID`)
    .execute(db);
  await sql.raw(`CREATE TABLE ${POSITIONS} (n integer PRIMARY KEY)`).execute(db);
  await sql
    .raw(`WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${MAX_KEY_LENGTH}) INSERT INTO ${POSITIONS} SELECT n FROM s`)
    .execute(db);
  // With the count of patients per trigram (search_trigram_counts, as PostgreSQL has since migration 128).
  const count = (row: 'new' | 'old', sign: '+' | '-') => `INSERT INTO ${TRIGRAM_COUNTS} (trigram, patients)
    SELECT trigram, ${sign}1 FROM (SELECT DISTINCT substr(keys.k, p.n, 3) AS trigram FROM (${sqliteKeys(row)}) AS keys
      JOIN ${POSITIONS} p ON p.n <= length(keys.k) - 2 WHERE keys.k IS NOT NULL) WHERE true
    ON CONFLICT (trigram) DO UPDATE SET patients = patients ${sign} 1;`;
  const insert = `INSERT OR IGNORE INTO ${TABLE} (trigram, "lastNameKey", "firstNameKey", id) ${sqliteEntries('new')}; ${count('new', '+')}`;
  // Each old entry by its whole key: the index finds it without reading the trigram's other patients.
  const remove = `DELETE FROM ${TABLE} WHERE (trigram, "lastNameKey", "firstNameKey", id) IN (${sqliteEntries('old')}); ${count('old', '-')}`;
  await sql.raw(`CREATE TRIGGER patients_trigram_order_insert AFTER INSERT ON patients BEGIN ${insert} END`).execute(db);
  await sql.raw(`CREATE TRIGGER patients_trigram_order_delete AFTER DELETE ON patients BEGIN ${remove} END`).execute(db);
  await sql
    .raw(`CREATE TRIGGER patients_trigram_order_update AFTER UPDATE OF ${quoted([...TRIGRAM_ORDER_KEYS, 'id'])} ON patients BEGIN ${remove} ${insert} END`)
    .execute(db);
  await sql.raw(`CREATE TABLE ${TRIGRAM_COUNTS} (trigram text PRIMARY KEY, patients integer NOT NULL) WITHOUT ROWID`).execute(db);
  for (const statement of sqliteFillAll()) await sql.raw(statement).execute(db);
}

/** SQLite: every patient's entries and the counts, into the empty tables (the migration). */
function sqliteFillAll(): string[] {
  const keys = TRIGRAM_ORDER_KEYS.map((k, i) => `${i === 0 ? 'SELECT' : 'UNION ALL SELECT'} r.id, r."${k}" AS k FROM patients r`).join(' ');
  return [
    `INSERT INTO ${TABLE} (trigram, "lastNameKey", "firstNameKey", id)
      SELECT DISTINCT substr(keys.k, p.n, 3), coalesce(r."lastNameKey", ''), coalesce(r."firstNameKey", ''), r.id
      FROM (${keys}) AS keys JOIN patients r ON r.id = keys.id JOIN ${POSITIONS} p ON p.n <= length(keys.k) - 2 WHERE keys.k IS NOT NULL`,
    `INSERT INTO ${TRIGRAM_COUNTS} (trigram, patients) SELECT trigram, count(*) FROM ${TABLE} GROUP BY trigram`,
  ];
}

async function postgresUp(db: Kysely<any>): Promise<void> {
  await sql
    .raw(`CREATE TABLE ${TABLE} (trigram text COLLATE "C" NOT NULL, "lastNameKey" text COLLATE "C" NOT NULL,
      "firstNameKey" text COLLATE "C" NOT NULL, id text NOT NULL, PRIMARY KEY (trigram, "lastNameKey", "firstNameKey", id))`)
    .execute(db);
  await sql.raw(fillAll()).execute(db);
  // Without statistics of the new table the planner guessed its walks wrong (a search at 100,000 patients: 18 ms, 4 after).
  await sql.raw(`ANALYZE ${TABLE}`).execute(db);
  const changed = (side: 'old_rows' | 'new_rows') =>
    `(SELECT ${side === 'old_rows' ? 'o' : 'n'}.* FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE (${quoted(TRIGRAM_ORDER_KEYS, 'o.')}) IS DISTINCT FROM (${quoted(TRIGRAM_ORDER_KEYS, 'n.')}))`;
  const insert = (rows: string) => `INSERT INTO ${TABLE} (trigram, "lastNameKey", "firstNameKey", id) ${orderEntriesOf(rows)} ON CONFLICT DO NOTHING`;
  const remove = (rows: string) => `DELETE FROM ${TABLE} t USING (${orderEntriesOf(rows)}) AS e
    WHERE t.trigram = e.trigram AND t."lastNameKey" = e."lastNameKey" AND t."firstNameKey" = e."firstNameKey" AND t.id = e.id`;
  const events: Record<string, { referencing: string; body: string }> = {
    insert: { referencing: 'NEW TABLE AS new_rows', body: insert('new_rows') },
    delete: { referencing: 'OLD TABLE AS old_rows', body: remove('old_rows') },
    // Most updates of a patient change no key: only those that do are read.
    update: { referencing: 'OLD TABLE AS old_rows NEW TABLE AS new_rows', body: `${remove(changed('old_rows'))}; ${insert(changed('new_rows'))}` },
  };
  for (const [event, { referencing, body }] of Object.entries(events)) {
    await sql.raw(`CREATE FUNCTION patients_trigram_order_${event}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${body}; RETURN NULL; END $$`).execute(db);
    await sql
      .raw(`CREATE TRIGGER patients_trigram_order_${event} AFTER ${event.toUpperCase()} ON patients REFERENCING ${referencing}
        FOR EACH STATEMENT EXECUTE FUNCTION patients_trigram_order_${event}()`)
      .execute(db);
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await postgresUp(db);
  else await sqliteUp(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const trigger of TRIGRAM_ORDER_TRIGGERS) {
    await sql.raw(postgres ? `DROP TRIGGER ${trigger} ON patients` : `DROP TRIGGER ${trigger}`).execute(db);
    if (postgres) await sql.raw(`DROP FUNCTION ${trigger}()`).execute(db);
  }
  await sql.raw(`DROP TABLE ${TABLE}`).execute(db);
  if (!postgres) for (const table of [POSITIONS, TRIGRAM_COUNTS]) await sql.raw(`DROP TABLE ${table}`).execute(db);
}

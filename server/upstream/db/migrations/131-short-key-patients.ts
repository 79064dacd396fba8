import { type Kysely, sql } from 'kysely';
import { TRIGRAM_ORDER_KEYS } from './129-trigram-name-order.ts';

/*
 * Patients with a name or code key of fewer than three characters ("Li", "Oz"), in the name order: such a key has no
 * trigram, so migration 129's table holds no entry of it, and a walk of trigrams for a search of one or two letters
 * (http/trigram-walk.ts: "oz" walks the patients of every trigram with "oz" in it) reads these few patients as well.
 * A partial index: it holds only them (none in the seeded instances), and a query with the same condition reads it.
 */

/** The condition of the index, word for word as a query must repeat it for the database to read the index. */
export const SHORT_KEYS = TRIGRAM_ORDER_KEYS.map((key) => `length("${key}") < 3`).join(' OR ');

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`CREATE INDEX patients_short_keys ON patients ("lastNameKey", "firstNameKey", id) WHERE ${SHORT_KEYS}`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('patients_short_keys').execute();
}

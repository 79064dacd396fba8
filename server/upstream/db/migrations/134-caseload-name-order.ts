import { type Kysely, PostgresAdapter, sql } from 'kysely';

/*
 * A coach's caseload in the name order from indexes alone: the care-team links hold their patient's name keys, in an
 * index (coach, last name key, first name key, patient) beside the primary coach's (migration 113), so a page of the
 * caseload by name merges the first rows of both (http/caseload-page.ts) instead of reading every patient of the
 * caseload to sort them: a coach's page of 50 at 100,000 patients (543 patients) read 543 rows by primary key, 1.9 ms
 * of SQLite and 2.9 of PostgreSQL (EXPLAIN ANALYZE); merged, 0.3 for either.
 *
 * The keys are copies of the patient's (db/sort-key-plugin.ts computes those on every write), kept by triggers: a
 * link takes its patient's keys when it is made, and a patient's new keys go to its links. The links are made and
 * removed, never changed, but a change of a link's patient takes the keys too. On PostgreSQL the columns sort as the
 * patient's do (COLLATE "C"), so both indexes give one order.
 */
const INDEX = 'patient_coaches_coach_name_order';
const KEYS = ['lastNameKey', 'firstNameKey'] as const;
const quoted = (prefix = '') => KEYS.map((k) => `${prefix}"${k}"`).join(', ');
const copied = (patientId: string) => KEYS.map((k) => `"${k}" = (SELECT p."${k}" FROM patients p WHERE p.id = ${patientId})`).join(', ');
const changed = KEYS.map((k) => `OLD."${k}" IS DISTINCT FROM NEW."${k}"`).join(' OR ');

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const key of KEYS) await sql.raw(`ALTER TABLE patient_coaches ADD COLUMN "${key}" text${postgres ? ' COLLATE "C"' : ''}`).execute(db);
  await sql.raw(`UPDATE patient_coaches SET ${copied('patient_coaches."patientId"')}`).execute(db);
  if (postgres) await postgresTriggers(db);
  else await sqliteTriggers(db);
  await db.schema
    .createIndex(INDEX)
    .on('patient_coaches')
    .columns(['coachId', ...KEYS, 'patientId'])
    .execute();
  if (postgres) await sql.raw('ANALYZE patient_coaches').execute(db);
}

async function sqliteTriggers(db: Kysely<any>): Promise<void> {
  const link = 'patient_coaches."patientId" = NEW."patientId" AND patient_coaches."coachId" = NEW."coachId"';
  await sql
    .raw(`CREATE TRIGGER patient_coaches_name_keys_insert AFTER INSERT ON patient_coaches
      BEGIN UPDATE patient_coaches SET ${copied('NEW."patientId"')} WHERE ${link}; END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER patient_coaches_name_keys_update AFTER UPDATE OF "patientId" ON patient_coaches
      BEGIN UPDATE patient_coaches SET ${copied('NEW."patientId"')} WHERE ${link}; END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER patients_caseload_name_keys AFTER UPDATE OF ${quoted()} ON patients WHEN ${changed}
      BEGIN UPDATE patient_coaches SET ${KEYS.map((k) => `"${k}" = NEW."${k}"`).join(', ')} WHERE "patientId" = NEW.id; END`)
    .execute(db);
}

async function postgresTriggers(db: Kysely<any>): Promise<void> {
  const take = KEYS.map((k) => `NEW."${k}" := p."${k}"`).join('; ');
  await sql
    .raw(`CREATE FUNCTION patient_coaches_name_keys() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE p record; BEGIN SELECT ${quoted()} INTO p FROM patients WHERE id = NEW."patientId"; ${take}; RETURN NEW; END $$`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER patient_coaches_name_keys BEFORE INSERT OR UPDATE OF "patientId" ON patient_coaches
      FOR EACH ROW EXECUTE FUNCTION patient_coaches_name_keys()`)
    .execute(db);
  await sql
    .raw(`CREATE FUNCTION patients_caseload_name_keys() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN UPDATE patient_coaches SET ${KEYS.map((k) => `"${k}" = NEW."${k}"`).join(', ')} WHERE "patientId" = NEW.id; RETURN NULL; END $$`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER patients_caseload_name_keys AFTER UPDATE OF ${quoted()} ON patients FOR EACH ROW WHEN (${changed})
      EXECUTE FUNCTION patients_caseload_name_keys()`)
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.dropIndex(INDEX).execute();
  if (postgres) {
    await sql.raw('DROP TRIGGER patients_caseload_name_keys ON patients').execute(db);
    await sql.raw('DROP TRIGGER patient_coaches_name_keys ON patient_coaches').execute(db);
    for (const fn of ['patients_caseload_name_keys', 'patient_coaches_name_keys']) await sql.raw(`DROP FUNCTION ${fn}()`).execute(db);
  } else {
    for (const trigger of ['patients_caseload_name_keys', 'patient_coaches_name_keys_insert', 'patient_coaches_name_keys_update'])
      await sql.raw(`DROP TRIGGER ${trigger}`).execute(db);
  }
  for (const key of KEYS) await sql.raw(`ALTER TABLE patient_coaches DROP COLUMN "${key}"`).execute(db);
}

import { type Kysely, PostgresAdapter, sql } from 'kysely';

/*
 * Lists that cost the same at 100,000 patients as at 10,000: every order the client asks for has an index in
 * that order (a page, and a skip, is then a walk along the index that stops after the page), a coach's patients
 * are found from the coach (care-team links by coach, then patient; patients by primary coach in name order), and
 * the newest comments are the end of an index. On PostgreSQL, the name, code and phone keys get trigram indexes
 * (pg_trgm), so a `like '%mül%'` name search reads the matching rows instead of every patient.
 */
const BTREES: [name: string, table: string, columns: string[]][] = [
  ['patient_coaches_coach_patient', 'patient_coaches', ['coachId', 'patientId']],
  ['patients_coach_name_order', 'patients', ['primaryCoachId', 'lastNameKey', 'firstNameKey', 'id']],
  ['patients_aftercare_end_order', 'patients', ['aftercareEnd', 'lastNameKey', 'id']],
  ['patients_last_data_order', 'patients', ['lastDataAt', 'lastNameKey', 'id']],
  // Newest data first, names ascending (the list's default direction for that column): PostgreSQL puts NULLs first
  // when descending, so without this order the patients who never synchronised are sorted on every page.
  ['patients_last_data_desc_order', 'patients', ['lastDataAt desc', 'lastNameKey', 'id']],
  ['patients_code_order', 'patients', ['patientCode', 'lastNameKey', 'id']],
  ['comments_created', 'comments', ['createdAt', 'id']],
  ['external_comments_created', 'external_comments', ['createdAt', 'id']],
];
const TRIGRAM_COLUMNS = ['lastNameKey', 'firstNameKey', 'lastNameSpelledKey', 'firstNameSpelledKey', 'patientCodeKey', 'phoneKey'];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, table, columns] of BTREES) await db.schema.createIndex(name).on(table).columns(columns).execute();
  // The single-column index is a prefix of the new one: one index less to keep on every care-team change.
  await db.schema.dropIndex('patient_coaches_coach').execute();
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  const schema = await trigramSchema(db);
  if (!schema) return;
  for (const column of TRIGRAM_COLUMNS) {
    await sql`create index ${sql.id(`patients_${column}_trgm`)} on patients using gin (${sql.id(column)} ${sql.id(schema, 'gin_trgm_ops')})`.execute(db);
  }
}

/**
 * The schema pg_trgm is installed in, installing it into public when it is not yet and the database user may
 * (a trusted extension: CREATE on the database suffices). Not in the storage's own schema: the extension is one
 * per database, and a schema dropped with its storage would take it along. Undefined when it cannot be had: the
 * searches then read every row, as before, and nothing else changes.
 */
export async function trigramSchema(db: Kysely<any>): Promise<string | undefined> {
  const installed = await sql<{ schema: string }>`select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`.execute(db);
  if (installed.rows[0]) return installed.rows[0].schema;
  const may = await sql<{ ok: boolean }>`select exists (select 1 from pg_available_extensions where name = 'pg_trgm')
    and has_database_privilege(current_database(), 'CREATE') and has_schema_privilege('public', 'CREATE') as ok`.execute(db);
  if (!may.rows[0]?.ok) return undefined;
  await sql`create extension if not exists pg_trgm with schema public`.execute(db);
  return 'public';
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const column of TRIGRAM_COLUMNS) await sql`drop index if exists ${sql.id(`patients_${column}_trgm`)}`.execute(db);
  }
  await db.schema.createIndex('patient_coaches_coach').on('patient_coaches').column('coachId').execute();
  for (const [name] of [...BTREES].reverse()) await db.schema.dropIndex(name).execute();
}

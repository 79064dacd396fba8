import { type Kysely, PostgresAdapter, sql } from 'kysely';

/*
 * SQLite: a trigram full-text index (FTS5) over the patients' search keys, so a name, code or phone search
 * (`like '%mül%'`, which no B-tree can serve) reads the matching patients instead of every one. It stores no
 * text of its own (external content: the keys are read from patients by rowid) and triggers keep it in step with
 * every write. PostgreSQL has the trigram indexes of migration 113 on the key columns themselves.
 */
export const PATIENT_SEARCH_INDEX = 'patient_search';
const COLUMNS = ['firstNameKey', 'lastNameKey', 'firstNameSpelledKey', 'lastNameSpelledKey', 'patientCodeKey', 'phoneKey'];

const list = (prefix: string) => sql.raw(COLUMNS.map((c) => `${prefix}"${c}"`).join(', '));

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`create virtual table patient_search using fts5(${list('')}, content='patients', content_rowid='rowid', tokenize='trigram')`.execute(db);
  await sql`create trigger patient_search_insert after insert on patients begin
    insert into patient_search(rowid, ${list('')}) values (new.rowid, ${list('new.')}); end`.execute(db);
  await sql`create trigger patient_search_delete after delete on patients begin
    insert into patient_search(patient_search, rowid, ${list('')}) values ('delete', old.rowid, ${list('old.')}); end`.execute(db);
  await sql`create trigger patient_search_update after update of ${list('')} on patients begin
    insert into patient_search(patient_search, rowid, ${list('')}) values ('delete', old.rowid, ${list('old.')});
    insert into patient_search(rowid, ${list('')}) values (new.rowid, ${list('new.')}); end`.execute(db);
  await sql`insert into patient_search(patient_search) values ('rebuild')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  for (const trigger of ['patient_search_insert', 'patient_search_delete', 'patient_search_update']) await sql`drop trigger ${sql.id(trigger)}`.execute(db);
  await sql`drop table patient_search`.execute(db);
}

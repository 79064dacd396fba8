import { describe, expect } from 'vitest';
import request from 'supertest';
import { sql } from 'kysely';
import { namesTest } from '../../helpers/upstream-names.ts';
import { storageBefore } from '../../helpers/upstream-migrations.ts';
import { codeKey, nameKey, phoneKey, spelledKey } from '../../../server/upstream/lib/sort-key.ts';
import { migrate } from '../../../server/upstream/db/index.ts';

/*
 * The stored keys behind German phone-book order (DIN 5007 variant 1) and search without case and accents: what a
 * key is, that every write keeps it, that the migration fills it, and that PostgreSQL compares it byte-wise. The
 * order and the search themselves: german-order.test.ts, german-search.test.ts. The test:postgres run repeats
 * every test here on PostgreSQL.
 */

const test = namesTest;

describe('the key', () => {
  test('is lower case with ä as a, ö as o, ü as u, ß as ss and accents removed', () => {
    expect(nameKey('Ärger Öl Übel')).toBe('arger ol ubel');
    expect(nameKey('Straße STRAẞE')).toBe('strasse strasse');
    expect(nameKey('José Émile Ñaki Çelik Åsa')).toBe('jose emile naki celik asa');
    expect(nameKey('Øster Łukasz Æbelø')).toBe('oster lukasz aebelo');
    expect(nameKey('%gü_nt%')).toBe('%gu_nt%');
  });

  test('spelled out is lower case with ä as ae, ö as oe, ü as ue, ß as ss and other accents removed', () => {
    expect(spelledKey('Ärger Öl Übel Weiß')).toBe('aerger oel uebel weiss');
    expect(spelledKey('Zoë José Günther')).toBe('zoe jose guenther');
    // Typed on a Mac, an umlaut may arrive as u plus a combining diaeresis.
    expect(spelledKey('Mu\u0308ller')).toBe('mueller');
    expect(spelledKey('%mü_l%')).toBe('%mue_l%');
  });

  test('of a patient code has no separators', () => {
    expect(codeKey('NK-4821')).toBe('nk4821');
    expect(codeKey('%nk 48-21%')).toBe('%nk4821%');
  });

  test('of a phone number is its digits', () => {
    expect(phoneKey('+49 (030) / 1234-56')).toBe('49030123456');
  });
});

describe('the keys are kept on every write', () => {
  test('a changed name sorts and is found by its new key', async ({ t }) => {
    await t.addPatients([
      ['Anna', 'Zimmer'],
      ['Berta', 'Meier'],
    ]);
    const zimmer = (
      await request(t.app)
        .get('/v2/patients')
        .set(t.asAdmin)
        .query({ filter: JSON.stringify({ where: { lastName: 'Zimmer' } }) })
    ).body[0];
    await request(t.app).patch(`/v2/patients/${zimmer.id}`).set(t.asAdmin).send({ lastName: 'Ähre' }).expect(200);
    expect(await t.list({ where: { firstName: { inq: ['Anna', 'Berta'] } }, order: 'lastName ASC' })).toEqual(['Ähre, Anna', 'Meier, Berta']);
    expect(await t.search('lastName', '%ahre%')).toEqual(['Ähre, Anna']);
    expect(await t.search('lastName', '%zimmer%')).toEqual([]);
  });

  test('writes that bypass the routes keep them too (seed, fixtures, scripts)', async ({ t }) => {
    const row = await t.storage.db
      .selectFrom('patients')
      .select(['lastName', 'lastNameKey', 'lastNameSpelledKey', 'firstNameKey', 'phoneKey'])
      .where('id', '=', 'p1')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ lastName: 'Müller', lastNameKey: 'muller', lastNameSpelledKey: 'mueller', firstNameKey: 'eva', phoneKey: null });
    await t.storage.db.updateTable('patients').set({ lastName: 'Weiß', phone: '0931 / 55', patientCode: 'ZZ-9876' }).where('id', '=', 'p1').execute();
    const after = await t.storage.db
      .selectFrom('patients')
      .select(['lastNameKey', 'lastNameSpelledKey', 'phoneKey', 'patientCodeKey'])
      .where('id', '=', 'p1')
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ lastNameKey: 'weiss', lastNameSpelledKey: 'weiss', phoneKey: '093155', patientCodeKey: 'zz9876' });
    const coach = await t.storage.db.selectFrom('coaches').select('lastNameKey').where('id', '=', 'coach').executeTakeFirstOrThrow();
    expect(coach.lastNameKey).toBe('test');
  });
});

test('the migration fills the keys of rows that existed before it', async () => {
  const { db, schema, close } = await storageBefore('106-german-sort-keys');
  try {
    const at = '2026-11-22T09:00:00.000Z';
    await db
      .insertInto('patients')
      .values({
        id: 'old',
        patientCode: 'AB-2222',
        firstName: 'Jürgen',
        lastName: 'Größe',
        birthDate: '1970-01-01',
        gender: 'male',
        email: null,
        phone: '030 99-1',
        clinic: '',
        aftercareStart: '2026-01-01',
        aftercareEnd: '2026-12-31',
        primaryCoachId: null,
        diagnosisIds: '[]',
        costRateId: null,
        appointments: '[]',
        lastDataAt: null,
        createdAt: at,
        updatedAt: at,
      })
      .execute();
    await migrate(db, schema);
    const row = await db.selectFrom('patients').select(['firstNameKey', 'lastNameKey', 'phoneKey']).where('id', '=', 'old').executeTakeFirstOrThrow();
    expect(row).toEqual({ firstNameKey: 'jurgen', lastNameKey: 'grosse', phoneKey: '030991' });
  } finally {
    await close();
  }
});

test('the migration fills the spelled-out and code keys of rows that existed before it', async () => {
  const { db, schema, close } = await storageBefore('110-spelled-search-keys');
  try {
    const at = '2026-11-22T09:00:00.000Z';
    const patient = { birthDate: '1970-01-01', gender: 'male', email: null, phone: null, clinic: '', aftercareStart: '2026-01-01' };
    const rest = { aftercareEnd: '2026-12-31', primaryCoachId: null, diagnosisIds: '[]', costRateId: null, appointments: '[]', lastDataAt: null };
    await db
      .insertInto('patients')
      .values({ id: 'old', patientCode: 'QR-2345', firstName: 'Jürgen', lastName: 'Größe', ...patient, ...rest, createdAt: at, updatedAt: at })
      .execute();
    await migrate(db, schema);
    const row = await db
      .selectFrom('patients')
      .select(['firstNameSpelledKey', 'lastNameSpelledKey', 'patientCodeKey'])
      .where('id', '=', 'old')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ firstNameSpelledKey: 'juergen', lastNameSpelledKey: 'groesse', patientCodeKey: 'qr2345' });
  } finally {
    await close();
  }
});

test.skipIf(!process.env.DATABASE_URL)('PostgreSQL compares the keys byte-wise, whatever the database collation', async ({ t }) => {
  const columns = await sql<{ table_name: string; column_name: string; collation_name: string | null }>`
    select table_name, column_name, collation_name from information_schema.columns
    where table_schema = current_schema() and column_name like '%Key' order by table_name, column_name`.execute(t.storage.db);
  expect(columns.rows.map((c) => `${c.table_name}.${c.column_name} ${c.collation_name}`)).toEqual([
    'coaches.firstNameKey C',
    'coaches.lastNameKey C',
    // The care-team links' copy, for the caseload's name order (migration 134).
    'patient_coaches.firstNameKey C',
    'patient_coaches.lastNameKey C',
    // The trigram walk's copy of the name order (migration 129).
    'patient_trigram_order.firstNameKey C',
    'patient_trigram_order.lastNameKey C',
    'patients.firstNameKey C',
    'patients.firstNameSpelledKey C',
    'patients.lastNameKey C',
    'patients.lastNameSpelledKey C',
    'patients.patientCodeKey C',
    'patients.phoneKey C',
  ]);
});

test.skipIf(!process.env.DATABASE_URL)('PostgreSQL writes into the trigram indexes at once, so a search never reads a pending list', async ({ t }) => {
  const indexes = await sql<{ relname: string; reloptions: string[] | null }>`
    select c.relname, c.reloptions from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relname like 'patients_%_trgm' order by c.relname`.execute(t.storage.db);
  // One per key column, and the one over all keys a search of several words asks (migration 135).
  expect(indexes.rows.length).toBe(7);
  expect(indexes.rows.map((index) => index.relname)).toContain('patients_all_keys_trgm');
  for (const index of indexes.rows) expect(index.reloptions, index.relname).toEqual(['fastupdate=off']);
});

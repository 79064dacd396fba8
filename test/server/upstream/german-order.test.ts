import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import request from 'supertest';
import { sql } from 'kysely';
import { createTestUpstream, type TestUpstream } from '../../helpers/upstream-app.ts';
import { storageBefore } from '../../helpers/upstream-migrations.ts';
import { nameKey, phoneKey } from '../../../server/upstream/lib/sort-key.ts';
import { migrate } from '../../../server/upstream/db/index.ts';

/*
 * German phone-book order (DIN 5007 variant 1) and search without case and accents, through stored keys. The
 * test:postgres run repeats every test here on PostgreSQL.
 */

let t: TestUpstream;
let admin: string;
beforeEach(async () => {
  t = await createTestUpstream();
  admin = await t.login('admin@example.org');
});
afterEach(() => t.close());

const as = (token: string) => ({ Authorization: `Bearer ${token}` });
const NAMES: [string, string][] = [
  ['Eva', 'Schulze'],
  ['Jörg', 'Schäfer'],
  ['Anton', 'Schafer'],
  ['Günther', 'Özdemir'],
  ['Ülkü', 'Ober'],
  ['Zoë', 'Abt'],
  ['Émile', 'Ärmel'],
  ['José', 'Straße'],
  ['Ines', 'Strasser'],
  ['Nicole', 'Bauer'],
  ['Matthias', 'Bauer'],
  ['Åsa', 'van den Berg'],
  ['Ole', 'Vanberg'],
  ['Łukasz', 'Øster'],
  ['Ñaki', 'ÜBEL'],
];

async function addPatients(names: [string, string][] = NAMES, phone?: (i: number) => string | null) {
  let i = 0;
  for (const [firstName, lastName] of names) {
    const res = await request(t.app)
      .post('/v2/patients')
      .set(as(admin))
      .send({ firstName, lastName, birthDate: '1970-01-01', aftercareStart: '2026-09-01', aftercareEnd: '2027-02-28', phone: phone?.(i) ?? null });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    i++;
  }
}
async function list(filter: Record<string, unknown>): Promise<string[]> {
  const res = await request(t.app)
    .get('/v2/patients')
    .set(as(admin))
    .query({ filter: JSON.stringify({ limit: 100, ...filter }) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { firstName: string; lastName: string }[]).map((p) => `${p.lastName}, ${p.firstName}`);
}
const search = (field: string, pattern: string) => list({ where: { [field]: { like: pattern } }, order: ['lastName ASC', 'firstName ASC'] });

describe('the key', () => {
  test('is lower case with ä as a, ö as o, ü as u, ß as ss and accents removed', () => {
    expect(nameKey('Ärger Öl Übel')).toBe('arger ol ubel');
    expect(nameKey('Straße STRAẞE')).toBe('strasse strasse');
    expect(nameKey('José Émile Ñaki Çelik Åsa')).toBe('jose emile naki celik asa');
    expect(nameKey('Øster Łukasz Æbelø')).toBe('oster lukasz aebelo');
    expect(nameKey('%gü_nt%')).toBe('%gu_nt%');
  });

  test('of a phone number is its digits', () => {
    expect(phoneKey('+49 (030) / 1234-56')).toBe('49030123456');
  });
});

describe('names sort as in a German phone book', () => {
  test('patients by last name, then first name, umlauts and accents as their base letter, case ignored', async () => {
    await addPatients();
    const sorted = await list({ where: { id: { nin: ['p1', 'p2', 'p3'] } }, order: ['lastName ASC', 'firstName ASC'] });
    expect(sorted).toEqual([
      'Abt, Zoë',
      'Ärmel, Émile',
      'Bauer, Matthias',
      'Bauer, Nicole',
      'Ober, Ülkü',
      'Øster, Łukasz',
      'Özdemir, Günther',
      'Schafer, Anton',
      'Schäfer, Jörg',
      'Schulze, Eva',
      'Straße, José',
      'Strasser, Ines',
      'ÜBEL, Ñaki',
      'van den Berg, Åsa',
      'Vanberg, Ole',
    ]);
    const reversed = await list({ where: { id: { nin: ['p1', 'p2', 'p3'] } }, order: ['lastName DESC', 'firstName DESC'] });
    expect(reversed).toEqual([...sorted].reverse());
  });

  test('the default order of the patient list is the same', async () => {
    await addPatients();
    const res = await request(t.app)
      .get('/v2/patients')
      .set(as(admin))
      .query({ filter: JSON.stringify({ where: { lastName: { inq: ['Schulze', 'Schäfer', 'Özdemir', 'Ober'] } } }) });
    expect(res.body.map((p: { lastName: string }) => p.lastName)).toEqual(['Ober', 'Özdemir', 'Schäfer', 'Schulze']);
  });

  test('coaches too', async () => {
    for (const [firstName, lastName, email] of [
      ['Ute', 'Zander', 'z@x.org'],
      ['Jens', 'Äbel', 'a@x.org'],
      ['Ole', 'Abendroth', 'b@x.org'],
    ]) {
      await request(t.app).post('/v2/coaches').set(as(admin)).send({ firstName, lastName, email, password: 'Geheim-Passwort-9' }).expect(201);
    }
    const res = await request(t.app)
      .get('/v2/coaches')
      .set(as(admin))
      .query({ filter: JSON.stringify({ where: { email: { like: '%@x.org' } }, order: ['lastName ASC'] }) });
    expect(res.body.map((c: { lastName: string }) => c.lastName)).toEqual(['Äbel', 'Abendroth', 'Zander']);
  });

  test("Controlling's rows too: Schäfer before Schulze, and Bauer, Matthias before Bauer, Nicole", async () => {
    await addPatients();
    const res = await request(t.app)
      .get('/v2/statistics/patient-detail-statistics')
      .set(as(admin))
      .query({ from: '"2026-09-01"', to: '"2026-11-22"', order: '"lastName ASC"', limit: '100' });
    expect(res.status).toBe(200);
    const names = (res.body as { firstName: string | null; lastName: string | null }[]).filter((r) => r.lastName).map((r) => `${r.lastName}, ${r.firstName}`);
    const at = (name: string) => names.indexOf(name);
    expect(at('Bauer, Matthias')).toBeLessThan(at('Bauer, Nicole'));
    expect(at('Schäfer, Jörg')).toBeLessThan(at('Schulze, Eva'));
    expect(at('Ärmel, Émile')).toBeLessThan(at('Bauer, Matthias'));
  });
});

describe('like on names ignores case and diacritics', () => {
  test.each([
    ['lastName', '%schafer%', ['Schafer, Anton', 'Schäfer, Jörg']],
    ['lastName', '%SCHÄF%', ['Schafer, Anton', 'Schäfer, Jörg']],
    ['firstName', '%gunther%', ['Özdemir, Günther']],
    ['firstName', 'Günther', ['Özdemir, Günther']],
    ['lastName', '%strasse%', ['Straße, José', 'Strasser, Ines']],
    ['lastName', '%straße%', ['Straße, José', 'Strasser, Ines']],
    ['firstName', '%jose%', ['Straße, José']],
    ['lastName', 'ub%', ['ÜBEL, Ñaki']],
    ['firstName', '%zoe%', ['Abt, Zoë']],
    ['lastName', '%oster%', ['Øster, Łukasz']],
  ])('%s like %s', async (field, pattern, expected) => {
    await addPatients();
    expect(await search(field, pattern)).toEqual(expected);
  });

  test('nlike excludes by the key too', async () => {
    await addPatients();
    const rest = await list({ where: { and: [{ lastName: { nlike: '%schafer%' } }, { id: { nin: ['p1', 'p2', 'p3'] } }] } });
    expect(rest).not.toContain('Schäfer, Jörg');
    expect(rest).not.toContain('Schafer, Anton');
    expect(rest).toContain('Schulze, Eva');
  });

  test('a phone number is found by its digits, however it was written', async () => {
    await addPatients(NAMES.slice(0, 3), (i) => ['030 / 1234-56', '+49 171 555 0101', null][i]);
    expect(await search('phone', '%0301234%')).toEqual(['Schulze, Eva']);
    expect(await search('phone', '%1234 56%')).toEqual(['Schulze, Eva']);
    expect(await search('phone', '%171555%')).toEqual(['Schäfer, Jörg']);
    // Without a digit the number is compared as written.
    expect(await search('phone', '% / %')).toEqual(['Schulze, Eva']);
  });
});

describe('the keys are kept on every write', () => {
  test('a changed name sorts and is found by its new key', async () => {
    await addPatients([
      ['Anna', 'Zimmer'],
      ['Berta', 'Meier'],
    ]);
    const zimmer = (
      await request(t.app)
        .get('/v2/patients')
        .set(as(admin))
        .query({ filter: JSON.stringify({ where: { lastName: 'Zimmer' } }) })
    ).body[0];
    await request(t.app).patch(`/v2/patients/${zimmer.id}`).set(as(admin)).send({ lastName: 'Ähre' }).expect(200);
    expect(await list({ where: { firstName: { inq: ['Anna', 'Berta'] } }, order: 'lastName ASC' })).toEqual(['Ähre, Anna', 'Meier, Berta']);
    expect(await search('lastName', '%ahre%')).toEqual(['Ähre, Anna']);
    expect(await search('lastName', '%zimmer%')).toEqual([]);
  });

  test('writes that bypass the routes keep them too (seed, fixtures, scripts)', async () => {
    const row = await t.storage.db
      .selectFrom('patients')
      .select(['lastName', 'lastNameKey', 'firstNameKey', 'phoneKey'])
      .where('id', '=', 'p1')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ lastName: 'Müller', lastNameKey: 'muller', firstNameKey: 'eva', phoneKey: null });
    await t.storage.db.updateTable('patients').set({ lastName: 'Weiß', phone: '0931 / 55' }).where('id', '=', 'p1').execute();
    const after = await t.storage.db.selectFrom('patients').select(['lastNameKey', 'phoneKey']).where('id', '=', 'p1').executeTakeFirstOrThrow();
    expect(after).toEqual({ lastNameKey: 'weiss', phoneKey: '093155' });
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

test.skipIf(!process.env.DATABASE_URL)('PostgreSQL compares the keys byte-wise, whatever the database collation', async () => {
  const columns = await sql<{ table_name: string; column_name: string; collation_name: string | null }>`
    select table_name, column_name, collation_name from information_schema.columns
    where table_schema = current_schema() and column_name like '%Key' order by table_name, column_name`.execute(t.storage.db);
  expect(columns.rows.map((c) => `${c.table_name}.${c.column_name} ${c.collation_name}`)).toEqual([
    'coaches.firstNameKey C',
    'coaches.lastNameKey C',
    'patients.firstNameKey C',
    'patients.lastNameKey C',
    'patients.phoneKey C',
  ]);
});

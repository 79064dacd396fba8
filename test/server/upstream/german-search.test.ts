import { describe, expect } from 'vitest';
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import { matchBound, matchedByTrigram, searchTrigrams, whereExpression } from '../../../server/upstream/http/filter.ts';
import { PATIENT_SEARCH_INDEX } from '../../../server/upstream/db/migrations/114-patient-search-index.ts';
import { patientSearchWhere } from '../../../client/components/patient-search/search-where.ts';
import { NAMES, namesTest, type NamesUpstream } from '../../helpers/upstream-names.ts';
import { signedIn } from '../../helpers/upstream-test.ts';
import request from 'supertest';

/*
 * Search on names without case and accents, and on phone numbers by their digits, through the stored keys
 * (german-keys.test.ts). The test:postgres run repeats every test here on PostgreSQL.
 */

const test = namesTest;

/** Kysely that only compiles, as on SQLite: for the SQL and parameters a filter becomes. */
const sqliteCompiler = () =>
  new Kysely<any>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (k) => new SqliteIntrospector(k),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });

describe('like on names ignores case and diacritics', () => {
  test.for([
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
  ] as const)('%s like %s', async ([field, pattern, expected], { t }) => {
    await t.addPatients();
    expect(await t.search(field, pattern)).toEqual(expected);
  });

  test('nlike excludes by the key too', async ({ t }) => {
    await t.addPatients();
    const rest = await t.list({ where: { and: [{ lastName: { nlike: '%schafer%' } }, { id: { nin: ['p1', 'p2', 'p3'] } }] } });
    expect(rest).not.toContain('Schäfer, Jörg');
    expect(rest).not.toContain('Schafer, Anton');
    expect(rest).toContain('Schulze, Eva');
  });

  test('a phone number is found by its digits, however it was written', async ({ t }) => {
    await t.addPatients(NAMES.slice(0, 3), (i) => ['030 / 1234-56', '+49 171 555 0101', null][i]);
    expect(await t.search('phone', '%0301234%')).toEqual(['Schulze, Eva']);
    expect(await t.search('phone', '%1234 56%')).toEqual(['Schulze, Eva']);
    expect(await t.search('phone', '%171555%')).toEqual(['Schäfer, Jörg']);
    // Without a digit the number is compared as written.
    expect(await t.search('phone', '% / %')).toEqual(['Schulze, Eva']);
  });
});

describe('umlauts spelled out and codes without separators', () => {
  // With the fixture's "Müller, Eva".
  const SPELLED: [string, string][] = [
    ['Karl', 'Mueller'],
    ['Lena', 'Muller'],
    ['Günther', 'Weiß'],
    ['Guenther', 'Weiss'],
    ['Ida', 'Schröder'],
    ['Jan', 'Hänel'],
    ['Zoë', 'Straße'],
    ['José', 'Brunner'],
    ['Uwe', 'Kurz'],
  ];
  const addSpelled = (t: NamesUpstream) =>
    t.addPatients(
      SPELLED,
      () => null,
      (i) => `NK-48${String(i).padStart(2, '2')}`,
    );

  test.for([
    ['lastName', '%mueller%', ['Mueller, Karl', 'Müller, Eva']],
    ['lastName', '%müller%', ['Mueller, Karl', 'Müller, Eva', 'Muller, Lena']],
    ['lastName', '%MUELL%', ['Mueller, Karl', 'Müller, Eva']],
    ['firstName', '%guenther%', ['Weiss, Guenther', 'Weiß, Günther']],
    ['firstName', 'günther', ['Weiss, Guenther', 'Weiß, Günther']],
    ['lastName', '%weiss%', ['Weiss, Guenther', 'Weiß, Günther']],
    ['lastName', '%weiß%', ['Weiss, Guenther', 'Weiß, Günther']],
    ['lastName', '%schroeder%', ['Schröder, Ida']],
    ['lastName', '%haenel%', ['Hänel, Jan']],
    ['lastName', '%strasse%', ['Straße, Zoë']],
    ['firstName', '%zoe%', ['Straße, Zoë']],
    ['firstName', '%jose%', ['Brunner, José']],
  ] as const)('%s like %s', async ([field, pattern, expected], { t }) => {
    await addSpelled(t);
    expect(await t.search(field, pattern)).toEqual(expected);
  });

  test('a spelled-out vowel finds only names that have it, umlaut or not', async ({ t }) => {
    await addSpelled(t);
    expect(await t.search('lastName', '%ue%')).toEqual(['Mueller, Karl', 'Müller, Eva']);
    expect(await t.search('firstName', '%ue%')).toEqual(['Weiss, Guenther', 'Weiß, Günther']);
    expect(await t.search('lastName', '%oe%')).toEqual(['Schröder, Ida']);
  });

  test('a code is found with its hyphen, without it or with a space instead', async ({ t }) => {
    await addSpelled(t);
    for (const typed of ['%NK-4822%', '%nk4822%', '%nk 4822%', '%48-22%']) {
      expect(await t.search('patientCode', typed), typed).toEqual(['Weiß, Günther']);
    }
    expect(await t.search('patientCode', '%nk48%')).toHaveLength(SPELLED.length);
    expect(await t.search('patientCode', '%nk4832%')).toEqual([]);
  });

  test('repeated spellings in one or are answered like one, with one comparison per key', async ({ t }) => {
    await addSpelled(t);
    const spellings = ['%müller%', '%Müller%', '%MÜLLER%', '%mueller%', '%Mueller%'].map((like) => ({ lastName: { like } }));
    const db = sqliteCompiler();
    const compiled = db
      .selectFrom('patients')
      .selectAll()
      .where((eb) => whereExpression(eb, { or: spellings }, 'patients'))
      .compile();
    // Five spellings, two of them different once keyed: each compared with the sort key and the spelled-out key.
    expect(compiled.parameters).toEqual(['%muller%', '%mueller%', '%mueller%', '%mueller%']);
    expect(await t.list({ where: { or: spellings }, order: ['lastName ASC', 'firstName ASC'] })).toEqual(['Mueller, Karl', 'Müller, Eva', 'Muller, Lena']);
  });
});

describe('a search of several words', () => {
  const byName = ['lastName ASC', 'firstName ASC'];

  test('is one question to the trigram index on SQLite: both words at once, not two sets intersected afterwards', () => {
    const db = sqliteCompiler();
    const where = patientSearchWhere('eva schul') as Record<string, unknown>;
    const compiled = db
      .selectFrom('patients')
      .selectAll()
      .where((eb) => whereExpression(eb, where, 'patients', { name: PATIENT_SEARCH_INDEX }))
      .compile();
    expect(compiled.sql.match(/ match /g)).toHaveLength(1);
    expect(compiled.parameters[0]).toMatch(/^\(.*"eva".*\) AND \(.*"schul".*\)$/);
  });

  test('asks the trigram index for each text once, in every column it is searched in', () => {
    const where = patientSearchWhere('Eva') as Record<string, unknown>;
    const compiled = sqliteCompiler()
      .selectFrom('patients')
      .selectAll()
      .where((eb) => whereExpression(eb, where, 'patients', { name: PATIENT_SEARCH_INDEX }))
      .compile();
    // "Eva", "eva" and "EVA" in three fields, each with its spelled-out key: one phrase over five columns.
    expect(compiled.parameters).toEqual(['({firstNameKey firstNameSpelledKey lastNameKey lastNameSpelledKey patientCodeKey}: "eva")']);
  });

  test("a coach's search finds among their patients what the administrator's finds, compared row by row", async ({ t }) => {
    await t.addPatients();
    const db = t.storage.db;
    // Every other patient is moved to the coach; the administrator's search is then narrowed to the coach's patients.
    const ids = (await db.selectFrom('patients').select('id').orderBy('lastNameKey').execute()).map((p) => p.id);
    await db
      .updateTable('patients')
      .set({ primaryCoachId: 'coach' })
      .where(
        'id',
        'in',
        ids.filter((_, i) => i % 2 === 0),
      )
      .execute();
    const linked = await db.selectFrom('patient_coaches').select('patientId as id').where('coachId', '=', 'coach').execute();
    const primary = await db.selectFrom('patients').select('id').where('primaryCoachId', '=', 'coach').execute();
    const theirs = [...primary, ...linked].map((p) => p.id);
    const asCoach = { Authorization: `Bearer ${await signedIn(t, 'coach')}` };
    let seen = 0;
    for (const text of ['schul', 'eva schul', 'bauer', 'sch', 'ber', 'ob', 'mueller', 'straße jo']) {
      const where = patientSearchWhere(text) as Record<string, unknown>;
      const filter = { where, order: byName, limit: 100 };
      const res = await request(t.app)
        .get('/v2/patients')
        .set(asCoach)
        .query({ filter: JSON.stringify(filter) });
      expect(res.status).toBe(200);
      const found = (res.body as { lastName: string; firstName: string }[]).map((p) => `${p.lastName}, ${p.firstName}`);
      expect(found, text).toEqual(await t.list({ ...filter, where: { and: [where, { id: { inq: theirs } }] } }));
      seen += found.length;
    }
    expect(seen).toBeGreaterThan(5);
  });

  test.for([
    ['eva schul', ['Schulze, Eva']],
    ['schul eva', ['Schulze, Eva']],
    // A word of two letters is compared without the index; the result is the same.
    ['ev schul', ['Schulze, Eva']],
    ['bauer nic', ['Bauer, Nicole']],
    ['straße jo', ['Straße, José']],
    ['van berg', ['van den Berg, Åsa', 'Vanberg, Ole']],
    ['"bauer"', []],
    // The search's own wildcards are the words' gaps: "bau%er" is "bau", anything, "er".
    ['bau%er', ['Bauer, Matthias', 'Bauer, Nicole']],
    ['b_uer', []],
  ] as const)('%s', async ([text, expected], { t }) => {
    await t.addPatients();
    expect(await t.list({ where: patientSearchWhere(text) as Record<string, unknown>, order: byName })).toEqual(expected);
  });
});

describe('how many patients a search can match, from the counts of its trigrams (PostgreSQL chooses by it)', () => {
  const counts: Record<string, number> = { sch: 2000, mue: 300, uel: 200, mül: 50, ann: 900, nna: 700 };
  const rows = (trigram: string) => counts[trigram] ?? 0;

  test('a word in all its spellings and fields counts each pattern of the keys once, at its rarest trigram', () => {
    // "sch" in three spellings and three fields: one pattern of the keys.
    expect(matchBound(patientSearchWhere('sch') as Record<string, unknown>, 'patients', rows)).toBe(2000);
    // "mül": the name keys' "mül" and the spelled keys' "muel" (whose rarer trigram is "uel").
    expect(matchBound(patientSearchWhere('mül') as Record<string, unknown>, 'patients', rows)).toBe(250);
  });

  test('two words: no more than the rarer; a pattern without a trigram or another condition bounds nothing', () => {
    expect(matchBound(patientSearchWhere('anna sch') as Record<string, unknown>, 'patients', rows)).toBe(700);
    expect(matchBound(patientSearchWhere('er') as Record<string, unknown>, 'patients', rows)).toBe(Number.POSITIVE_INFINITY);
    expect(matchBound({ and: [patientSearchWhere('sch') as Record<string, unknown>, { aftercareStart: { lte: '2030-01-01' } }] }, 'patients', rows)).toBe(2000);
    expect(matchBound({ or: [{ lastName: { like: '%sch%' } }, { aftercareStart: { lte: '2030-01-01' } }] }, 'patients', rows)).toBe(Number.POSITIVE_INFINITY);
    expect(searchTrigrams({ lastName: { like: '%Mül%ler%' } }, 'patients')).toEqual(expect.arrayContaining(['ler', 'mue', 'uel']));
  });
});

describe("whose trigram's patients all match a search (counted without being read, trigram-walk.ts matchesBeyond)", () => {
  const columns = ['lastNameKey', 'firstNameKey', 'lastNameSpelledKey', 'firstNameSpelledKey', 'patientCodeKey'];

  test("the client's search of one or two letters, for each trigram that holds them", () => {
    const ja = patientSearchWhere('ja') as Record<string, unknown>;
    expect(matchedByTrigram(ja, 'patients', columns, 'jan')).toBe(true);
    expect(matchedByTrigram(ja, 'patients', columns, 'aja')).toBe(true);
    expect(matchedByTrigram(ja, 'patients', columns, 'jxa')).toBe(false);
    // A word of three letters is its own trigram.
    expect(matchedByTrigram(patientSearchWhere('mar') as Record<string, unknown>, 'patients', columns, 'mar')).toBe(true);
  });

  test('not when a column goes uncompared, a key is compared otherwise, or there is more than the word', () => {
    // Only the last name: a patient with "jan" in the first name does not match.
    expect(matchedByTrigram({ or: [{ lastName: { like: '%ja%' } }] }, 'patients', columns, 'jan')).toBe(false);
    // "mül": the spelled keys are compared with "muel", which "mul" does not hold.
    expect(matchedByTrigram(patientSearchWhere('mül') as Record<string, unknown>, 'patients', columns, 'mul')).toBe(false);
    // A pattern with a wildcard inside, and a word with another condition.
    const inside = { or: ['lastName', 'firstName', 'patientCode'].map((field) => ({ [field]: { like: '%j_n%' } })) };
    expect(matchedByTrigram(inside, 'patients', columns, 'jan')).toBe(false);
    const also = { and: [patientSearchWhere('ja') as Record<string, unknown>, { aftercareStart: { lte: '2030-01-01' } }] };
    expect(matchedByTrigram(also, 'patients', columns, 'jan')).toBe(false);
  });
});

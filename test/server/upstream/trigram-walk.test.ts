import { describe, expect } from 'vitest';
import request from 'supertest';
import { sql } from 'kysely';
import { makePatients } from '../../../server/upstream/seed/demo.ts';
import { seededRandom } from '../../../server/upstream/seed/random.ts';
import { insertPatients } from '../../../server/upstream/features/patients/repository.ts';
import { TRIGRAM_WALK } from '../../../server/upstream/http/trigram-walk.ts';
import { namesTest, type NamesUpstream } from '../../helpers/upstream-names.ts';
import { patientSearchWhere } from '../../../client/components/patient-search/search-where.ts';

/*
 * A name search in the name order walks the patients of its rarest trigram (migration 129, http/trigram-walk.ts).
 * Whatever the walk does - one trigram, several merged (a word with an umlaut is asked in two spellings), cut short
 * before a page is full - a page holds exactly the rows the search answered before, and the walk's table follows
 * every write. The test:postgres run repeats every test here on PostgreSQL.
 */

const test = namesTest;

async function addGenerated(t: NamesUpstream, count: number, seed: number) {
  const taken = (await t.storage.db.selectFrom('patients').select('patientCode').execute()).map((p) => p.patientCode as string);
  const many = makePatients(seededRandom(seed), new Date(), count, ['coach'], 'walk', taken);
  await insertPatients(
    t.storage.db,
    many.map((p) => ({ ...p, costRateId: 'rate-1', diagnosisIds: '[]' })),
  );
}

const page = (t: NamesUpstream, filter: Record<string, unknown>) =>
  request(t.app)
    .get('/v2/patients')
    .set(t.asAdmin)
    .query({ filter: JSON.stringify(filter) });

/** The ids of a page, and its total, with the walk on or off. */
async function pageWith(t: NamesUpstream, walk: boolean, filter: Record<string, unknown>) {
  const enabled = TRIGRAM_WALK.enabled;
  TRIGRAM_WALK.enabled = walk;
  try {
    const res = await page(t, filter);
    expect(res.status).toBe(200);
    return { ids: (res.body as { id: string }[]).map((p) => p.id), total: res.headers['x-total-count'] as string | undefined };
  } finally {
    TRIGRAM_WALK.enabled = enabled;
  }
}

const ASC = ['lastName ASC', 'firstName ASC', 'id ASC'];
const DESC = ['lastName DESC', 'firstName DESC', 'id DESC'];
const WORDS = [
  'mar',
  'anna',
  'müller',
  'mül',
  'Schäfer',
  'jürgen',
  'anna sch',
  'er sch',
  'ann müll',
  'zzq',
  'MEIER',
  'nk',
  'oz',
  'ü',
  'q',
  'ja',
  'e m',
  'xq',
  'qx an',
];

describe('a name search walking its trigrams', { timeout: 60_000 }, () => {
  test('gives every page the search gave before, in both directions, also when the walk is cut short', async ({ t }) => {
    await t.addPatients();
    await addGenerated(t, 400, 11);
    const entries = TRIGRAM_WALK.entries;
    try {
      // As configured, then so short that most walks are cut before the page is full.
      for (const walkEntries of [entries, (rows: number) => rows + 3]) {
        TRIGRAM_WALK.entries = walkEntries;
        for (const text of WORDS) {
          const where = patientSearchWhere(text) as Record<string, unknown>;
          for (const order of [ASC, DESC]) {
            const all = await pageWith(t, false, { where, order, limit: 1000 });
            expect((await pageWith(t, true, { where, order, limit: 1000 })).ids, `${text} ${order[0]}`).toEqual(all.ids);
            for (const [skip, limit] of [
              [0, 1],
              [0, 26],
              [5, 7],
              [30, 26],
              [all.ids.length, 5],
            ]) {
              const walked = await pageWith(t, true, { where, order, skip, limit });
              expect(walked.ids, `${text} ${order[0]} ${skip} ${limit}`).toEqual(all.ids.slice(skip, skip + limit));
              // A total, where there is one, is the number of matches.
              if (walked.total !== undefined) expect(walked.total, `${text} ${skip} ${limit}`).toBe(String(all.ids.length));
            }
          }
        }
      }
    } finally {
      TRIGRAM_WALK.entries = entries;
    }
  });

  test('a word of one or two letters finds the patients whose key is too short for a trigram too', async ({ t }) => {
    await t.addPatients([
      ['Li', 'Wu'],
      ['Bo', 'Ng'],
      ['Ed', 'Oz'],
      ['Anna', 'Li'],
      ['Jo', 'Lindqvist'],
    ]);
    await addGenerated(t, 300, 13);
    const entries = TRIGRAM_WALK.entries;
    try {
      for (const walkEntries of [entries, (rows: number) => rows + 3]) {
        TRIGRAM_WALK.entries = walkEntries;
        for (const text of ['li', 'wu', 'ng', 'oz', 'bo', 'o', 'jo', 'd', 'li an', 'wu li']) {
          const where = patientSearchWhere(text) as Record<string, unknown>;
          for (const order of [ASC, DESC]) {
            const all = await pageWith(t, false, { where, order, limit: 1000 });
            expect(all.ids.length, text).toBeGreaterThan(0);
            expect((await pageWith(t, true, { where, order, limit: 1000 })).ids, `${text} ${order[0]}`).toEqual(all.ids);
            for (const [skip, limit] of [
              [0, 1],
              [0, 3],
              [2, 5],
            ]) {
              const walked = await pageWith(t, true, { where, order, skip, limit });
              expect(walked.ids, `${text} ${order[0]} ${skip} ${limit}`).toEqual(all.ids.slice(skip, skip + limit));
              if (walked.total !== undefined) expect(walked.total, `${text} ${skip} ${limit}`).toBe(String(all.ids.length));
            }
          }
        }
      }
    } finally {
      TRIGRAM_WALK.entries = entries;
    }
  });

  test('a page that is not full carries its total; a full one at most the count the walk can make', async ({ t }) => {
    await t.addPatients();
    await addGenerated(t, 300, 5);
    const where = patientSearchWhere('an') as Record<string, unknown>;
    const all = await pageWith(t, false, { where: patientSearchWhere('ann'), order: ASC, limit: 1000 });
    const last = await pageWith(t, true, { where: patientSearchWhere('ann'), order: ASC, skip: all.ids.length - 2, limit: 26 });
    expect(last).toEqual({ ids: all.ids.slice(-2), total: String(all.ids.length) });
    // "an" has no trigram of its own: walked by the trigrams that have it, the same page.
    expect(await pageWith(t, true, { where, order: ASC, limit: 5 })).toEqual(await pageWith(t, false, { where, order: ASC, limit: 5 }));
  });

  test('other orders and filters the walk cannot serve are answered as before', async ({ t }) => {
    await t.addPatients();
    await addGenerated(t, 120, 9);
    const where = patientSearchWhere('mar') as Record<string, unknown>;
    for (const filter of [
      { where, order: ['lastName ASC', 'id ASC'], limit: 10 },
      { where, order: ['lastName DESC', 'firstName DESC'], limit: 10 },
      { where, order: ['firstName ASC'], limit: 10 },
      { where: patientSearchWhere('0301'), order: ASC, limit: 10 },
      { where: { and: [where, { gender: 'female' }] }, order: ASC, limit: 10 },
    ]) {
      expect(await pageWith(t, true, filter), JSON.stringify(filter.order)).toEqual(await pageWith(t, false, filter));
    }
  });

  test('a rare word of one or two letters in another order: its possible matches sorted, the same pages', async ({ t }) => {
    await t.addPatients([
      ['Li', 'Wu'],
      ['Ed', 'Oz'],
      ['Anna', 'Li'],
    ]);
    await addGenerated(t, 300, 17);
    const orders = [['aftercareEnd DESC', 'lastName ASC', 'id ASC'], ['lastDataAt ASC', 'lastName ASC', 'id ASC'], ['patientCode ASC'], ['firstName ASC']];
    for (const text of ['li', 'wu', 'oz', 'zz', 'q', 'ü', 'ja', 'li an', 'an', 'xq']) {
      const where = patientSearchWhere(text) as Record<string, unknown>;
      for (const order of orders) {
        const all = await pageWith(t, false, { where, order, limit: 1000 });
        for (const [skip, limit] of [
          [0, 3],
          [2, 26],
        ]) {
          const walked = await pageWith(t, true, { where, order, skip, limit });
          expect(walked.ids, `${text} ${order[0]} ${skip} ${limit}`).toEqual(all.ids.slice(skip, skip + limit));
          if (walked.total !== undefined) expect(walked.total, `${text} ${order[0]}`).toBe(String(all.ids.length));
        }
      }
    }
  });
});

/** Per trigram of a patient's name and code keys, the patient (name keys and id), from the keys themselves. */
async function expectedEntries(t: NamesUpstream): Promise<string[]> {
  const keys = ['lastNameKey', 'firstNameKey', 'lastNameSpelledKey', 'firstNameSpelledKey', 'patientCodeKey'] as const;
  const rows = await t.storage.db
    .selectFrom('patients')
    .select(['id', ...keys])
    .execute();
  return rows
    .flatMap((row) => {
      const trigrams = new Set(
        keys.flatMap((k) => {
          const chars = [...((row[k] as string | null) ?? '')];
          return chars.slice(0, -2).map((_, i) => chars.slice(i, i + 3).join(''));
        }),
      );
      return [...trigrams].map((trigram) => `${trigram}|${row.lastNameKey}|${row.firstNameKey}|${row.id}`);
    })
    .sort();
}

async function storedEntries(t: NamesUpstream): Promise<string[]> {
  const rows = await t.storage.db.selectFrom('patient_trigram_order').selectAll().execute();
  return rows.map((r) => `${r.trigram}|${r.lastNameKey}|${r.firstNameKey}|${r.id}`).sort();
}

describe("the walk's table", { timeout: 60_000 }, () => {
  test('follows inserts, renames, other changes and deletions, and so do the trigram counts', async ({ t }) => {
    await t.addPatients();
    await addGenerated(t, 40, 3);
    expect(await storedEntries(t)).toEqual(await expectedEntries(t));
    const [first, second, third] = (await page(t, { limit: 3, order: ASC })).body as { id: string }[];
    expect((await request(t.app).patch(`/v2/patients/${first.id}`).set(t.asAdmin).send({ lastName: 'Zwirbelhüber', firstName: 'Ännchen' })).status).toBe(200);
    expect((await request(t.app).patch(`/v2/patients/${second.id}`).set(t.asAdmin).send({ clinic: 'Andere Klinik', phone: '030 998877' })).status).toBe(200);
    expect((await request(t.app).delete(`/v2/patients/${third.id}`).set(t.asAdmin)).status).toBeLessThan(300);
    expect(await storedEntries(t)).toEqual(await expectedEntries(t));
    expect((await pageWith(t, true, { where: patientSearchWhere('zwirbelhue'), order: ASC })).ids).toEqual([first.id]);
    // Each trigram's count is its number of patients (PostgreSQL also counts the phone numbers' trigrams: letters only).
    const { rows } = await sql<{ trigram: string; patients: number; entries: number }>`select c.trigram, c.patients,
      (select count(*) from patient_trigram_order o where o.trigram = c.trigram) as entries
      from search_trigram_counts c where c.trigram not like '%0%' and c.trigram not like '%1%' and c.trigram not like '%2%'
        and c.trigram not like '%3%' and c.trigram not like '%4%' and c.trigram not like '%5%' and c.trigram not like '%6%'
        and c.trigram not like '%7%' and c.trigram not like '%8%' and c.trigram not like '%9%'`.execute(t.storage.db);
    expect(rows.length).toBeGreaterThan(50);
    for (const row of rows) expect(Number(row.patients), row.trigram).toBe(Number(row.entries));
  });
});

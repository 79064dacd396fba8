import { describe, expect } from 'vitest';
import request from 'supertest';
import { sql } from 'kysely';
import { makePatients } from '../../../server/upstream/seed/demo.ts';
import { seededRandom } from '../../../server/upstream/seed/random.ts';
import { insertPatients } from '../../../server/upstream/features/patients/repository.ts';
import { COUNT_LIMIT, SEARCH_WALK } from '../../../server/upstream/http/list-page.ts';
import { NAMES, namesTest, type NamesUpstream } from '../../helpers/upstream-names.ts';
import { signedIn } from '../../helpers/upstream-test.ts';
import { patientSearchWhere } from '../../../client/components/patient-search/search-where.ts';
import { parseListQuery, toListFilter } from '../../../client/features/patient/listQuery.ts';
import { ORDER_WALK } from '../../../server/upstream/http/walk-or-sort.ts';
import { TRIGRAM_WALK } from '../../../server/upstream/http/trigram-walk.ts';
import { aftercareStatus } from '../../../client/api/patients.ts';
import { endsSoon } from '../../../client/features/dashboard/queries.ts';
import { isoDay } from '../../../client/components/AftercareBadge.tsx';
import { freshness } from '../../../client/domain/freshness.ts';

/*
 * What keeps lists cheap on a large instance, seen from a client: the search index follows every change of a name,
 * and a list longer than COUNT_LIMIT answers without X-Total-Count instead of counting every row. The
 * test:postgres run repeats every test here on PostgreSQL (trigram indexes instead of the SQLite search table).
 */

const test = namesTest;

/** `count` generated patients of the coach 'coach' (ids and codes tagged), besides the ones there were (`taken` codes). */
async function addGenerated(t: NamesUpstream, count: number, tag: string, seed: number, changes: Record<string, string> = {}) {
  const taken = (await t.storage.db.selectFrom('patients').select('patientCode').execute()).map((p) => p.patientCode as string);
  const many = makePatients(seededRandom(seed), new Date(), count, ['coach'], tag, taken);
  await insertPatients(
    t.storage.db,
    many.map((p) => ({ ...p, ...changes, costRateId: 'rate-1', diagnosisIds: '[]' })),
  );
  return { taken, many };
}

const page = (t: NamesUpstream, filter: Record<string, unknown>) =>
  request(t.app)
    .get('/v2/patients')
    .set(t.asAdmin)
    .query({ filter: JSON.stringify(filter) });

describe('the name search follows every write', { timeout: 60_000 }, () => {
  test('a renamed patient is found by the new name only, a deleted one not at all', async ({ t }) => {
    await t.addPatients([['Frieda', 'Quandtmeyer']]);
    const [found] = (await page(t, { where: { lastName: { like: '%quandt%' } } })).body as { id: string; updatedAt: string }[];
    expect(found).toBeDefined();
    const renamed = await request(t.app).patch(`/v2/patients/${found.id}`).set(t.asAdmin).send({ lastName: 'Zwirbelhuber' });
    expect(renamed.status).toBe(200);
    expect(await t.search('lastName', '%quandt%')).toEqual([]);
    expect(await t.list({ where: { or: [{ lastName: { like: '%WIRBEL%' } }, { firstName: { like: '%wirbel%' } }] } })).toEqual(['Zwirbelhuber, Frieda']);
    expect((await request(t.app).delete(`/v2/patients/${found.id}`).set(t.asAdmin)).status).toBeLessThan(300);
    expect(await t.search('lastName', '%wirbel%')).toEqual([]);
  });

  test('a search over every name field and spelling finds the same patients as one comparison per field', async ({ t }) => {
    await t.addPatients();
    const words = ['%schaf%', '%Schäf%', '%SCHAEF%'];
    const where = { or: words.flatMap((w) => [{ lastName: { like: w } }, { firstName: { like: w } }, { patientCode: { like: w } }]) };
    expect(await t.list({ where, order: ['lastName ASC', 'firstName ASC'] })).toEqual(['Schafer, Anton', 'Schäfer, Jörg']);
    expect(await t.list({ where: { and: [where, { firstName: { like: '%jö%' } }] } })).toEqual(['Schäfer, Jörg']);
  });
});

/** The patients whose name or code keys contain every word (lower case, as the keys are), in the name order. */
async function byKeys(t: NamesUpstream, words: string[]): Promise<{ id: string }[]> {
  const columns = ['lastNameKey', 'firstNameKey', 'lastNameSpelledKey', 'firstNameSpelledKey', 'patientCodeKey'] as const;
  let query = t.storage.db.selectFrom('patients').select('id');
  for (const word of words) query = query.where((eb) => eb.or(columns.map((c) => eb(c, 'like', `%${word}%`))));
  return query.orderBy('lastNameKey').orderBy('firstNameKey').orderBy('id').execute();
}

describe('a search walking the order', { timeout: 60_000 }, () => {
  test('gives the pages the index gives: a word of one or two letters, and a word with more matches than the walk starts at', async ({ t }) => {
    await t.addPatients();
    await addGenerated(t, 300, 'walk', 7);
    const from = SEARCH_WALK.from;
    SEARCH_WALK.from = 20;
    try {
      const order = ['lastName ASC', 'firstName ASC', 'id ASC'];
      for (const text of ['e', 'er', 'sch', 'an', 'mül', 'anna sch', 'r b', 'zz']) {
        const where = patientSearchWhere(text) as Record<string, unknown>;
        // The keys compared here with each word (as written, for words the keys spell the same), else the same
        // search with a condition that is always true, which the index's matches answer, sorted (SQLite).
        const all = /^[a-z ]+$/.test(text)
          ? await byKeys(t, text.split(' '))
          : ((await page(t, { where: { and: [where, { aftercareStart: { lte: '2999-12-31' } }] }, order, limit: 1000 })).body as { id: string }[]);
        const walked = await page(t, { where, order, limit: 1000 });
        expect(
          walked.body.map((p: { id: string }) => p.id),
          text,
        ).toEqual(all.map((p) => p.id));
        for (const [skip, limit] of [
          [0, 1],
          [0, 9],
          [3, 7],
          [20, 26],
        ]) {
          const one = await page(t, { where, order, skip, limit });
          expect(
            one.body.map((p: { id: string }) => p.id),
            `${text} ${skip} ${limit}`,
          ).toEqual(all.slice(skip, skip + limit).map((p) => p.id));
          const count = one.headers['x-total-count'];
          if (count !== undefined) expect(count, text).toBe(String(all.length));
        }
      }
    } finally {
      SEARCH_WALK.from = from;
    }
  });
});

describe('a search in an order whose index holds the search keys (migration 133)', { timeout: 60_000 }, () => {
  test('walked or sorted, gives the pages of the whole list in that order filtered by the keys', async ({ t }) => {
    await t.addPatients();
    await addGenerated(t, 300, 'keyed', 17);
    const from = SEARCH_WALK.fromInKeyedOrder;
    const { countLimit } = TRIGRAM_WALK;
    try {
      for (const text of ['sch', 'ann', 'ber', 'anna sch', 'zz', 'ja', 'li', 'mül', 'oz'])
        for (const sort of ['patientCode ASC', 'aftercareEnd ASC', 'aftercareEnd DESC', 'lastDataAt ASC', 'lastDataAt DESC']) {
          const order = [sort, 'lastName ASC', 'id ASC'];
          const where = patientSearchWhere(text) as Record<string, unknown>;
          // The keys compared with each word (for a word the keys spell the same), else the same search by name.
          const matches = /^[a-z ]+$/.test(text)
            ? await byKeys(t, text.split(' '))
            : ((await page(t, { where, order: ['lastName ASC', 'firstName ASC', 'id ASC'], limit: 1000 })).body as { id: string }[]);
          const matching = new Set(matches.map((p) => p.id));
          expect(matching.size, text).toBeGreaterThan(['zz', 'anna sch'].includes(text) ? -1 : 3);
          const whole = ((await page(t, { order, limit: 1000 })).body as { id: string }[]).filter((p) => matching.has(p.id));
          // A low threshold walks the order for every word; a high one sorts the index's matches; a low count limit
          // walks every word known to match more than it (list-page.ts keyedSearchPage), the patients without data
          // from the first match among them on where they come first.
          for (const [threshold, walkCount] of [
            [5, countLimit],
            [1_000_000, countLimit],
            [1_000_000, 3],
          ]) {
            SEARCH_WALK.fromInKeyedOrder = threshold;
            TRIGRAM_WALK.countLimit = walkCount;
            for (const [skip, limit] of [
              [0, 25],
              [4, 9],
              [30, 26],
            ]) {
              const one = await page(t, { where, order, skip, limit });
              const label = `${text} ${sort} ${skip} ${limit} ${threshold} ${walkCount}`;
              expect(one.status, label).toBe(200);
              expect(
                (one.body as { id: string }[]).map((p) => p.id),
                label,
              ).toEqual(whole.slice(skip, skip + limit).map((p) => p.id));
              const count = one.headers['x-total-count'];
              if (count !== undefined) expect(count, label).toBe(String(whole.length));
            }
          }
        }
    } finally {
      SEARCH_WALK.fromInKeyedOrder = from;
      TRIGRAM_WALK.countLimit = countLimit;
    }
  });
});

describe.skipIf(!process.env.DATABASE_URL)('search trigram counts (PostgreSQL)', { timeout: 60_000 }, () => {
  /** Per trigram, the patients with it in any search key, counted from the keys themselves. */
  async function recount(t: NamesUpstream): Promise<Record<string, number>> {
    const keys = ['lastNameKey', 'firstNameKey', 'lastNameSpelledKey', 'firstNameSpelledKey', 'patientCodeKey', 'phoneKey'] as const;
    const rows = await t.storage.db.selectFrom('patients').select(keys).execute();
    const counts: Record<string, number> = {};
    for (const row of rows) {
      const trigrams = new Set(
        keys.flatMap((k) => {
          const chars = [...((row[k] as string | null) ?? '')];
          return chars.slice(0, -2).map((_, i) => chars.slice(i, i + 3).join(''));
        }),
      );
      for (const trigram of trigrams) counts[trigram] = (counts[trigram] ?? 0) + 1;
    }
    return counts;
  }

  async function stored(t: NamesUpstream): Promise<Record<string, number>> {
    const { rows } = await sql<{ trigram: string; patients: number }>`select trigram, patients from search_trigram_counts where patients <> 0`.execute(
      t.storage.db,
    );
    return Object.fromEntries(rows.map((r) => [r.trigram, Number(r.patients)]));
  }

  test('follow inserts, renames, other changes and deletions', async ({ t }) => {
    await t.addPatients();
    await addGenerated(t, 40, 'tri', 3);
    expect(await stored(t)).toEqual(await recount(t));
    const [first, second] = (await page(t, { limit: 2, order: ['lastName ASC'] })).body as { id: string }[];
    expect((await request(t.app).patch(`/v2/patients/${first.id}`).set(t.asAdmin).send({ lastName: 'Zwirbelhuber', phone: '030 998877' })).status).toBe(200);
    expect((await request(t.app).patch(`/v2/patients/${second.id}`).set(t.asAdmin).send({ clinic: 'Andere Klinik' })).status).toBe(200);
    expect((await request(t.app).delete(`/v2/patients/${second.id}`).set(t.asAdmin)).status).toBeLessThan(300);
    expect(await stored(t)).toEqual(await recount(t));
  });
});

describe('counting', { timeout: 60_000 }, () => {
  test('a list of up to COUNT_LIMIT rows carries its exact total, also for limit 0 and a page that is not full', async ({ t }) => {
    await t.addPatients();
    const all = await page(t, { limit: 1000 });
    const total = all.body.length;
    expect(all.headers['x-total-count']).toBe(String(total));
    expect((await page(t, { limit: 0 })).headers['x-total-count']).toBe(String(total));
    expect((await page(t, { limit: 5, skip: 2 })).headers['x-total-count']).toBe(String(total));
    expect((await page(t, { limit: 5, skip: total + 10 })).headers['x-total-count']).toBe(String(total));
  });

  test("a coach's list carries the caseload's exact total on every page, filtered or not, and rows without it", async ({ t }) => {
    await t.addPatients();
    const db = t.storage.db;
    const ids = (await db.selectFrom('patients').select('id').orderBy('id').execute()).map((p) => p.id);
    await db
      .updateTable('patients')
      .set({ primaryCoachId: 'coach' })
      .where(
        'id',
        'in',
        ids.filter((_, i) => i % 2 === 0),
      )
      .execute();
    await db.insertInto('patient_coaches').values({ patientId: ids[1], coachId: 'coach', createdAt: new Date().toISOString() }).execute();
    const primary = await db.selectFrom('patients').select('id').where('primaryCoachId', '=', 'coach').execute();
    const linked = await db.selectFrom('patient_coaches').select('patientId as id').where('coachId', '=', 'coach').execute();
    const theirs = new Set([...primary, ...linked].map((p) => p.id)).size;
    const asCoach = { Authorization: `Bearer ${await signedIn(t, 'coach')}` };
    const coachPage = (filter: Record<string, unknown>) =>
      request(t.app)
        .get('/v2/patients')
        .set(asCoach)
        .query({ filter: JSON.stringify(filter) });
    for (const [filter, rows] of [
      [{ limit: 3 }, 3],
      [{ limit: 3, skip: 3 }, 3],
      [{ limit: 3, skip: theirs - 1 }, 1],
      [{ limit: 0 }, 0],
      [{ limit: 3, skip: theirs + 5 }, 0],
    ] as const) {
      const answer = await coachPage(filter);
      expect(answer.body, JSON.stringify(filter)).toHaveLength(rows);
      expect(answer.headers['x-total-count'], JSON.stringify(filter)).toBe(String(theirs));
      for (const row of answer.body as Record<string, unknown>[]) expect(Object.keys(row).filter((key) => key.startsWith('__'))).toEqual([]);
    }
    const bauer = await coachPage({ where: { lastName: { like: '%e%' } }, limit: 1 });
    const withE = (await coachPage({ where: { lastName: { like: '%e%' } }, limit: 100 })).body.length;
    expect(withE).toBeGreaterThan(1);
    expect(bauer.headers['x-total-count']).toBe(String(withE));
  });

  test("an administrator's search carries the exact total up to COUNT_LIMIT matches (PostgreSQL's in the name order up to the walk's count), and none beyond", async ({
    t,
  }) => {
    await t.addPatients();
    const searches = [
      patientSearchWhere('schul'),
      patientSearchWhere('eva schul'),
      patientSearchWhere('bauer nic'),
      patientSearchWhere('ber'),
      patientSearchWhere('er'),
      { and: [patientSearchWhere('bauer'), { firstName: { like: '%nic%' } }] },
      { and: [patientSearchWhere('ber'), { aftercareStart: { lte: '2030-01-01' } }] },
    ];
    for (const where of searches) {
      const all = (await page(t, { where, limit: 100 })).body as unknown[];
      expect(all.length, JSON.stringify(where)).toBeGreaterThan(0);
      const first = await page(t, { where, limit: 1 });
      expect(first.headers['x-total-count'], JSON.stringify(where)).toBe(String(all.length));
    }
    // A search that walks its trigrams or the order (a word of two letters in many names: with the trigram walk
    // off) is counted up to what a walk of the name order counts.
    const { countLimit, enabled } = TRIGRAM_WALK;
    try {
      const er = patientSearchWhere('er');
      const matches = ((await page(t, { where: er, limit: 100 })).body as unknown[]).length;
      expect(matches).toBeLessThan(100);
      for (const walkTrigrams of [true, false]) {
        TRIGRAM_WALK.enabled = walkTrigrams;
        TRIGRAM_WALK.countLimit = matches - 1;
        expect((await page(t, { where: er, limit: 1 })).headers['x-total-count'], String(walkTrigrams)).toBeUndefined();
        TRIGRAM_WALK.countLimit = matches;
        expect((await page(t, { where: er, limit: 1 })).headers['x-total-count'], String(walkTrigrams)).toBe(String(matches));
      }
    } finally {
      Object.assign(TRIGRAM_WALK, { countLimit, enabled });
    }
    const { many } = await addGenerated(t, COUNT_LIMIT + 1, 'zettel', 5, { lastName: 'Zettelmeier' });
    const over = await page(t, { where: patientSearchWhere('zettelmeier'), limit: 1 });
    expect(over.body).toHaveLength(1);
    expect(over.headers['x-total-count']).toBeUndefined();
    await t.storage.db.deleteFrom('patients').where('id', '=', many[0].id).execute();
    const at = await page(t, { where: patientSearchWhere('zettelmeier'), limit: 1 });
    // PostgreSQL counts a search walked in the name order on the walk, up to TRIGRAM_WALK.countLimit (http/trigram-walk.ts).
    expect(at.headers['x-total-count']).toBe(process.env.DATABASE_URL ? undefined : String(COUNT_LIMIT));
    const walked = await page(t, { where: patientSearchWhere('zettelmeier'), order: ['lastName ASC', 'id ASC'], limit: 1 });
    expect(walked.headers['x-total-count']).toBe(String(COUNT_LIMIT));
  });

  test('a list longer than COUNT_LIMIT answers its page without X-Total-Count, its last page with it', async ({ t }) => {
    const { taken } = await addGenerated(t, COUNT_LIMIT + 50, 'many', 3);
    const total = taken.length + COUNT_LIMIT + 50;
    const first = await page(t, { limit: 51, order: ['lastName ASC', 'firstName ASC', 'id ASC'] });
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(51);
    expect(first.headers['x-total-count']).toBeUndefined();
    expect((await page(t, { limit: 0 })).headers['x-total-count']).toBeUndefined();
    const last = await page(t, { limit: 50, skip: total - 20 });
    expect(last.body).toHaveLength(20);
    expect(last.headers['x-total-count']).toBe(String(total));
    const coach = await page(t, { where: { primaryCoachId: 'coach' }, limit: 0 });
    expect(coach.headers['x-total-count']).toBeUndefined();
  });

  test('a walk through a long list with a growing skip gives every row once, in order, whatever the page size', async ({ t }) => {
    await addGenerated(t, COUNT_LIMIT + 200, 'walk', 5);
    const count = Number(
      (
        await t.storage.db
          .selectFrom('patients')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(count).toBeGreaterThan(COUNT_LIMIT);
    const walk = async (filter: Record<string, unknown>, size: number) => {
      const ids: string[] = [];
      for (;;) {
        const answer = await page(t, { ...filter, limit: size, skip: ids.length });
        expect(answer.status).toBe(200);
        ids.push(...answer.body.map((p: { id: string }) => p.id));
        if (answer.body.length < size) return ids;
      }
    };
    const today = new Date().toISOString().slice(0, 10);
    for (const filter of [
      { order: ['lastName ASC', 'firstName ASC', 'id ASC'] },
      { order: ['aftercareEnd DESC', 'lastName ASC'] },
      { order: 'patientCode ASC', where: { aftercareEnd: { gte: today } } },
    ]) {
      const inThousands = await walk(filter, 1000);
      expect(new Set(inThousands).size).toBe(inThousands.length);
      if (!filter.where) expect(inThousands).toHaveLength(count);
      expect(await walk(filter, 97), JSON.stringify(filter)).toEqual(inThousands);
    }
  });
});

describe("a coach's caseload by name (http/caseload-page.ts)", { timeout: 60_000 }, () => {
  test('merged from the primary and the care-team patients, gives the pages and total of the same list read row by row, after renames and changed links', async ({
    t,
  }) => {
    // Ties on both names, in either half of the caseload: broken by the id across both.
    await t.addPatients([...NAMES, ['Nicole', 'Bauer'], ['Nicole', 'Bauer'], ['Eva', 'Schulze'], ['Eva', 'Schulze']]);
    const db = t.storage.db;
    const patients = await db.selectFrom('patients').select(['id', 'firstName', 'lastName']).orderBy('id').execute();
    const named = (first: string, last: string) => patients.filter((p) => p.firstName === first && p.lastName === last).map((p) => p.id);
    const [bauer1, bauer2, bauer3] = named('Nicole', 'Bauer');
    const [abt] = named('Zoë', 'Abt');
    const [ubel] = named('Ñaki', 'ÜBEL');
    const [mueller] = named('Łukasz', 'Øster');
    const schulzes = named('Eva', 'Schulze');
    const others = patients.map((p) => p.id).filter((id) => ![bauer1, bauer2, bauer3, abt, ubel, mueller, ...schulzes].includes(id));
    const primary = [bauer1, bauer3, ...others.filter((_, i) => i % 3 === 0)];
    const team = [bauer2, bauer3, abt, ubel, mueller, ...schulzes, ...others.filter((_, i) => i % 3 === 1)];
    await db.updateTable('patients').set({ primaryCoachId: 'coach' }).where('id', 'in', primary).execute();
    const createdAt = new Date().toISOString();
    const link = (patientId: string) =>
      db
        .insertInto('patient_coaches')
        .values({ patientId, coachId: 'coach', createdAt })
        .onConflict((oc) => oc.doNothing())
        .execute();
    for (const id of team) await link(id);
    // Renamed after being linked, from one end of the order to the other: the links take the new keys (migration 134).
    const rename = (id: string, lastName: string) => request(t.app).patch(`/v2/patients/${id}`).set(t.asAdmin).send({ lastName });
    expect((await rename(ubel, 'Aal')).status).toBe(200);
    expect((await rename(abt, 'Zyx')).status).toBe(200);
    // Unlinked; and renamed, unlinked and linked again.
    const unlinked = schulzes[2];
    await db.deleteFrom('patient_coaches').where('patientId', '=', unlinked).execute();
    expect((await rename(mueller, 'Aachen')).status).toBe(200);
    await db.deleteFrom('patient_coaches').where('patientId', '=', mueller).execute();
    await link(mueller);
    const linked = await db.selectFrom('patient_coaches').select('patientId as id').where('coachId', '=', 'coach').execute();
    const own = await db.selectFrom('patients').select('id').where('primaryCoachId', '=', 'coach').execute();
    const theirs = new Set([...own, ...linked].map((p) => p.id));
    expect(theirs.has(unlinked)).toBe(false);
    const asCoach = { Authorization: `Bearer ${await signedIn(t, 'coach')}` };
    const coachPage = async (filter: Record<string, unknown>) => {
      const answer = await request(t.app)
        .get('/v2/patients')
        .set(asCoach)
        .query({ filter: JSON.stringify(filter) });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return { ids: (answer.body as { id: string }[]).map((p) => p.id), total: answer.headers['x-total-count'] };
    };
    for (const order of [
      undefined,
      ['lastName ASC', 'firstName ASC', 'id ASC'],
      ['lastName DESC', 'firstName DESC', 'id DESC'],
      ['lastName ASC', 'firstName ASC'],
      ['lastName DESC', 'firstName DESC'],
    ]) {
      // The same list with a filter that keeps every row, which takes the general path.
      const whole = (await coachPage({ order, where: { id: { nin: ['-'] } }, limit: 1000 })).ids;
      expect(new Set(whole)).toEqual(theirs);
      expect(whole).toHaveLength(theirs.size);
      for (let skip = 0; skip <= whole.length + 1; skip += 3) {
        const { ids: rows, total } = await coachPage({ order, limit: 4, skip });
        expect(rows, `${JSON.stringify(order)} skip ${skip}`).toEqual(whole.slice(skip, skip + 4));
        expect(total).toBe(String(whole.length));
      }
    }
  });
});

type Patient = { id: string; aftercareStart: string; aftercareEnd: string; lastDataAt: string | null };

/** The client's status of a patient on `now`'s day, "ending" included (client/api/patients.ts, dashboard/queries.ts). */
function inStatus(patient: Patient, status: string, now: Date): boolean {
  if (!status) return true;
  if (status === 'ending') return aftercareStatus(patient, isoDay(now)) === 'active' && endsSoon(patient, now);
  return aftercareStatus(patient, isoDay(now)) === status;
}

/** `count` generated patients, every `every`th of them with its last data 45 days before `now`. */
async function addWithOldData(t: NamesUpstream, count: number, tag: string, seed: number, every: number, now: Date) {
  const { many } = await addGenerated(t, count, tag, seed);
  const old = many.filter((_, i) => i % every === 0).map((p) => p.id);
  await t.storage.db
    .updateTable('patients')
    .set({ lastDataAt: new Date(now.getTime() - 45 * 86_400_000).toISOString() })
    .where('id', 'in', old)
    .execute();
}

describe('a filter beside the order (http/walk-or-sort.ts)', { timeout: 60_000 }, () => {
  test('gives the pages the sorted matches give, whether its walk finds the page or not, with the total up to the count', async ({ t }) => {
    const now = new Date();
    // Some with data from long ago too ("grau" is no data or none for 30 days), in every status.
    await addWithOldData(t, 400, 'beside', 11, 6, now);
    const settings = { ...ORDER_WALK };
    const answer = async (query: string, skip: number) => {
      const filter = { ...toListFilter(parseListQuery(query), now), skip };
      const res = await page(t, filter);
      expect(res.status, query).toBe(200);
      return { ids: (res.body as { id: string }[]).map((p) => p.id), total: res.headers['x-total-count'] };
    };
    try {
      const statuses = ['', 'planned', 'active', 'ending', 'completed'];
      const lasts = ['', 'green', 'yellow', 'red', 'grey'];
      const sorts = ['lastName', '-lastName', 'patientCode', '-patientCode', 'aftercareEnd', '-aftercareEnd', 'lastDataAt', '-lastDataAt'];
      let walkedPages = 0;
      for (const status of statuses)
        for (const last of lasts) {
          if (!status && !last) continue;
          for (const sort of sorts)
            for (const skip of [0, 30]) {
              const query = new URLSearchParams({ status, last, sort }).toString();
              Object.assign(ORDER_WALK, { from: settings.from, most: -1 });
              const sorted = await answer(query, skip);
              // The page the whole list in that order gives, filtered here by the client's own rules.
              const filter = toListFilter(parseListQuery(query), now);
              const whole = (await page(t, { order: filter.order, limit: 1000 })).body as Patient[];
              const expected = whole.filter((p) => inStatus(p, status, now) && (!last || freshness(p.lastDataAt, now) === last));
              expect(sorted.ids, `${query} skip ${skip}, sorted`).toEqual(expected.slice(skip, skip + 25).map((p) => p.id));
              // Counted first (for "grau" in its two halves): the total is the number of matches.
              if (skip === 0) {
                const every = (await page(t, { ...toListFilter(parseListQuery(query), now), limit: 1000 })).body as unknown[];
                expect(sorted.total, `${query} total`).toBe(String(every.length));
              }
              // A low count makes nearly every filter walk; a short walk misses many pages and sorts after all.
              for (const rowsPerPageRow of [2, 50]) {
                Object.assign(ORDER_WALK, { from: 20, rowsPerPageRow, most: settings.most });
                const walked = await answer(query, skip);
                expect(walked.ids, `${query} skip ${skip}, ${rowsPerPageRow} rows per row`).toEqual(sorted.ids);
                if (sorted.ids.length === 25 && walked.total === undefined) walkedPages++;
                if (sorted.total !== undefined && Number(sorted.total) <= 20) expect(walked.total).toBe(sorted.total);
              }
            }
        }
      expect(walkedPages).toBeGreaterThan(100);
    } finally {
      Object.assign(ORDER_WALK, settings);
    }
  });

  test('a status most of whose patients have no data, by last data (empty values last): those with data, then the others by name', async ({ t }) => {
    const now = new Date();
    await addWithOldData(t, 200, 'later', 19, 5, now);
    // Planned: 140 without data, 6 with (a call before the start); the rest of the list has data, old or recent.
    const { many } = await addGenerated(t, 146, 'planned', 23);
    const day = (days: number) => new Date(now.getTime() + days * 86_400_000).toISOString().slice(0, 10);
    await t.storage.db
      .updateTable('patients')
      .set({ aftercareStart: day(20), aftercareEnd: day(200), lastDataAt: null })
      .where(
        'id',
        'in',
        many.map((p) => p.id),
      )
      .execute();
    await t.storage.db
      .updateTable('patients')
      .set({ lastDataAt: new Date(now.getTime() - 3 * 86_400_000).toISOString() })
      .where(
        'id',
        'in',
        many.slice(0, 6).map((p) => p.id),
      )
      .execute();
    const settings = { ...ORDER_WALK };
    try {
      for (const sort of ['lastDataAt', '-lastDataAt'])
        for (const [skip, limit] of [
          [0, 25],
          [3, 7],
          [4, 25],
          [60, 25],
          [130, 25],
        ])
          for (const from of [20, settings.from]) {
            Object.assign(ORDER_WALK, { from });
            const filter = { ...toListFilter(parseListQuery(new URLSearchParams({ status: 'planned', sort }).toString()), now), skip, limit };
            const whole = (await page(t, { order: filter.order, limit: 1000 })).body as Patient[];
            const expected = whole.filter((p) => inStatus(p, 'planned', now)).slice(skip, skip + limit);
            const label = `${sort} ${skip} ${limit} ${from}`;
            expect(expected.length, label).toBeGreaterThan(0);
            expect(
              ((await page(t, filter)).body as { id: string }[]).map((p) => p.id),
              label,
            ).toEqual(expected.map((p) => p.id));
          }
    } finally {
      Object.assign(ORDER_WALK, settings);
    }
  });

  test('"grau" read in its two halves gives the pages and total of the same filter read as one condition', async ({ t }) => {
    const now = new Date();
    await addWithOldData(t, 300, 'halves', 13, 4, now);
    const settings = { ...ORDER_WALK };
    // A third member that matches nothing keeps the same condition from being split (walk-or-sort.ts isEmptyOr).
    const asOne = (where: unknown): unknown =>
      JSON.parse(JSON.stringify(where), (_, value) =>
        value && Array.isArray(value.or) && value.or.length === 2 ? { or: [...value.or, { id: 'kein-patient' }] } : value,
      );
    try {
      for (const status of ['', 'planned', 'active'])
        for (const sort of ['lastDataAt', '-lastDataAt', 'lastName'])
          for (const [skip, limit] of [
            [0, 25],
            [20, 25],
            [60, 7],
          ])
            for (const rowsPerPageRow of [2, 100]) {
              Object.assign(ORDER_WALK, { from: 20, rowsPerPageRow });
              const filter = { ...toListFilter(parseListQuery(new URLSearchParams({ status, last: 'grey', sort }).toString()), now), skip, limit };
              const split = await page(t, filter);
              const one = await page(t, { ...filter, where: asOne(filter.where) });
              const ids = (res: typeof split) => (res.body as { id: string }[]).map((p) => p.id);
              const label = `${status} ${sort} ${skip} ${limit} ${rowsPerPageRow}`;
              if (skip === 0) expect(ids(split).length, label).toBeGreaterThan(0);
              expect(ids(split), label).toEqual(ids(one));
              // The total, where there is one (a status is counted only up to ORDER_WALK.from), is every match's.
              const every = (await page(t, { ...filter, where: asOne(filter.where), skip: 0, limit: 1000 })).body as unknown[];
              if ((!status && sort !== 'lastName') || split.headers['x-total-count'] !== undefined)
                expect(split.headers['x-total-count'], label).toBe(String(every.length));
            }
    } finally {
      Object.assign(ORDER_WALK, settings);
    }
  });
});

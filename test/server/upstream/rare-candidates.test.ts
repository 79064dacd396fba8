import { describe, expect } from 'vitest';
import request from 'supertest';
import { makePatients } from '../../../server/upstream/seed/demo.ts';
import { seededRandom } from '../../../server/upstream/seed/random.ts';
import { insertPatients } from '../../../server/upstream/features/patients/repository.ts';
import { RARE_CANDIDATES } from '../../../server/upstream/http/rare-candidates.ts';
import { namesTest, type NamesUpstream } from '../../helpers/upstream-names.ts';
import { patientSearchWhere } from '../../../client/components/patient-search/search-where.ts';

/*
 * A search of several words found from its rarest trigrams' candidates (http/rare-candidates.ts) gives the pages and
 * totals the search gave before, in every order the client asks for, whether its candidates are few, none, or more
 * than the limit. The test:postgres run repeats it on PostgreSQL (the trigram index of all keys, migration 135).
 */

const test = namesTest;

/** The ids of a page, and its total, with the candidates on or off. */
async function pageWith(t: NamesUpstream, candidates: boolean, filter: Record<string, unknown>) {
  const enabled = RARE_CANDIDATES.enabled;
  RARE_CANDIDATES.enabled = candidates;
  try {
    const res = await request(t.app)
      .get('/v2/patients')
      .set(t.asAdmin)
      .query({ filter: JSON.stringify(filter) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { ids: (res.body as { id: string }[]).map((p) => p.id), total: res.headers['x-total-count'] as string | undefined };
  } finally {
    RARE_CANDIDATES.enabled = enabled;
  }
}

const ORDERS = [
  ['lastName ASC', 'firstName ASC', 'id ASC'],
  ['lastName DESC', 'firstName DESC', 'id DESC'],
  ['aftercareEnd DESC', 'lastName ASC', 'id ASC'],
  ['patientCode ASC', 'lastName ASC', 'id ASC'],
];

describe('a search of several words from its rarest trigrams', { timeout: 60_000 }, () => {
  test('gives the pages and totals of the search without them, with few, no, and too many candidates', async ({ t }) => {
    await t.addPatients([
      ['Peter', 'Müller'],
      ['Peter', 'Mueller'],
      ['Petra', 'Müller-Lüdenscheidt'],
      ['Müller', 'Peters'],
      ['Hans-Peter', 'Schmidt'],
      ['Anna', 'Meier'],
      ['Jörg', 'Schäfer'],
      ['Ülkü', 'Öztürk'],
      // Each word's rarest trigram, but not the words: candidates the filter then refuses.
      ['Grete', 'Mulder'],
      ['Johanna', 'Goldschmidt-Petersen'],
      ['Peta', 'Mühler'],
    ]);
    const taken = (await t.storage.db.selectFrom('patients').select('patientCode').execute()).map((p) => p.patientCode as string);
    const many = makePatients(seededRandom(17), new Date(), 300, ['coach'], 'rare', taken);
    await insertPatients(
      t.storage.db,
      many.map((p) => ({ ...p, costRateId: 'rate-1', diagnosisIds: '[]' })),
    );
    // Full names of generated patients (first and last, either way round), spellings, a code, words no one has together.
    const named = many.slice(0, 4).flatMap((p) => [`${p.firstName} ${p.lastName}`, `${p.lastName} ${p.firstName}`]);
    const code = many[5].patientCode.slice(0, 5);
    const searches = [
      ...named,
      'peter müller',
      'peter mueller',
      'müller peter',
      'peter schmidt',
      'hans peter schmidt',
      'pet mül',
      `${code} ${many[5].lastName}`,
      'anna schäfer',
      'zzq xxq',
      'er an',
      'ül öz',
    ];
    const most = RARE_CANDIDATES.most;
    try {
      // As configured, then with so few allowed that most searches have too many candidates.
      for (const limit of [most, 2]) {
        RARE_CANDIDATES.most = limit;
        for (const text of searches) {
          const where = patientSearchWhere(text) as Record<string, unknown>;
          for (const order of ORDERS) {
            const all = await pageWith(t, false, { where, order, limit: 1000 });
            expect((await pageWith(t, true, { where, order, limit: 1000 })).ids, `${text} ${order[0]}`).toEqual(all.ids);
            // Pages once, as configured (with the lower limit the search takes the path it took before).
            if (limit !== most) continue;
            for (const [skip, size] of [
              [0, 1],
              [0, 26],
              [1, 2],
              [all.ids.length, 5],
            ]) {
              const before = await pageWith(t, false, { where, order, skip, limit: size });
              const now = await pageWith(t, true, { where, order, skip, limit: size });
              expect(now.ids, `${text} ${order[0]} ${skip} ${size}`).toEqual(all.ids.slice(skip, skip + size));
              if (now.total !== undefined) expect(now.total, `${text} ${skip} ${size}`).toBe(String(all.ids.length));
              if (before.total !== undefined) expect(now.total, `${text} ${skip} ${size}`).toBe(before.total);
            }
          }
        }
      }
    } finally {
      RARE_CANDIDATES.most = most;
    }
    // The searches above found someone, and some nobody; some candidates were refused.
    const found = await Promise.all(searches.map(async (text) => (await pageWith(t, true, { where: patientSearchWhere(text), limit: 5 })).ids.length));
    expect(found.filter((n) => n > 0).length).toBeGreaterThan(10);
    expect(found).toContain(0);
  });
});

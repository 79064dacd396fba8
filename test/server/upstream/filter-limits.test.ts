import { describe, expect } from 'vitest';
import request from 'supertest';
import { fileUpstreamTest } from '../../helpers/upstream-test.ts';
import { FILTER_LIMITS, parseFilter } from '../../../server/upstream/http/filter.ts';
import { patientSearchWhere } from '../../../client/components/patient-search/search-where.ts';

/*
 * Every filter has a cost limit, each above what the client itself sends (its patient search is the largest
 * filter it makes) and each answered with a 400 that names the limit.
 */
const PATIENT_FIELDS = { firstName: 'string', lastName: 'string', patientCode: 'string', phone: 'string', id: 'string' } as const;
const test = fileUpstreamTest()
  .extend('token', { scope: 'file' }, ({ t }) => t.login('coach@example.org'))
  /** The patient list with this where, as the coach asks for it. */
  .extend(
    'list',
    { scope: 'file' },
    ({ t, token }) =>
      (where: unknown) =>
        request(t.app)
          .get('/v2/patients')
          .query({ filter: JSON.stringify({ where }) })
          .set('Authorization', `Bearer ${token}`),
  );
const parse = (where: unknown) => () => parseFilter({ filter: JSON.stringify({ where }) }, PATIENT_FIELDS);

/** The or-tree of the issue: `depth` levels of `or`, 256 `like` conditions at the bottom. */
function hostileTree(depth: number): Record<string, unknown> {
  let level: Record<string, unknown>[] = Array.from({ length: 256 }, (_, i) => ({ lastName: { like: `%${i}%` } }));
  for (let d = 0; d < depth; d++) {
    const next: Record<string, unknown>[] = [];
    for (let i = 0; i < level.length; i += 2) next.push({ or: level.slice(i, i + 2) });
    level = next.length ? next : [{ or: level }];
  }
  return level[0];
}

const refusal = (error: unknown) => {
  const e = error as { status: number; code: string; message: string };
  return { status: e.status, code: e.code, message: e.message };
};
const thrown = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return refusal(error);
  }
  return undefined;
};

describe("the client's own searches pass", () => {
  test('a three-word search with umlauts is answered with its match', async ({ list }) => {
    const res = await list(patientSearchWhere('Müller Schröder Weiß'));
    expect(res.status).toBe(200);
  });

  test('a search text of the full 100 characters, every word with umlauts, is within every limit', () => {
    for (const text of [Array(34).fill('ää').join(' ').slice(0, 100), Array(25).fill('ä1ü').join(' ').slice(0, 100), 'ä'.repeat(100)]) {
      expect(thrown(parse(patientSearchWhere(text)))).toBeUndefined();
    }
  });

  test('the longest search that fits in a request line is answered', async ({ list }) => {
    const res = await list(patientSearchWhere(Array(4).fill('ää').join(' ')));
    expect(res.status).toBe(200);
  });
});

describe('a filter over a limit is a 400 naming the limit', () => {
  test('the 8-deep or-tree of 256 like conditions is refused for its depth', async ({ t, token }) => {
    // Sent as plain JSON (only % encoded), as a script would: percent-encoded it is over Node's 16 KB request head.
    const filter = JSON.stringify({ where: hostileTree(8) }).replace(/%/g, '%25');
    const res = await request(t.app).get(`/v2/patients?filter=${filter}`).set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('FILTER_TOO_COSTLY');
    expect(res.body.error.message).toContain(`depth (${FILTER_LIMITS.depth})`);
  });

  test('nesting one level deeper than allowed is refused, at the limit it passes', () => {
    let where: Record<string, unknown> = { lastName: 'x' };
    for (let i = 0; i < FILTER_LIMITS.depth; i++) where = { and: [where] };
    expect(thrown(parse(where))).toBeUndefined();
    expect(thrown(parse({ or: [where] }))?.message).toContain('depth');
  });

  test('more conditions than allowed are refused', () => {
    const conditions = (n: number) => ({ or: Array.from({ length: n }, (_, i) => ({ lastName: `n${i}` })) });
    expect(thrown(parse(conditions(FILTER_LIMITS.conditions)))).toBeUndefined();
    expect(thrown(parse(conditions(FILTER_LIMITS.conditions + 1)))).toEqual({
      status: 400,
      code: 'FILTER_TOO_COSTLY',
      message: `The filter is over its limit conditions (${FILTER_LIMITS.conditions})`,
    });
  });

  test('a pattern longer than allowed is refused', async ({ list }) => {
    const res = await list({ lastName: { like: `%${'a'.repeat(FILTER_LIMITS.patternLength)}%` } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'FILTER_TOO_COSTLY', details: [{ path: 'filter.where.lastName.like' }] });
    expect(res.body.error.message).toContain('patternLength');
  });

  test('a pattern with more wildcards than allowed is refused', async ({ list }) => {
    const res = await list({ lastName: { like: '%a%b%c%d%e%f%g%h%' } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('patternWildcards');
  });

  test('an inq longer than allowed is refused', async ({ list }) => {
    const res = await list({ id: { inq: Array.from({ length: FILTER_LIMITS.listValues + 1 }, (_, i) => `p${i}`) } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('listValues');
  });
});

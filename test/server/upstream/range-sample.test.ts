import { describe, expect } from 'vitest';
import { CompiledQuery, sql } from 'kysely';
import { makePatients } from '../../../server/upstream/seed/demo.ts';
import { seededRandom } from '../../../server/upstream/seed/random.ts';
import { insertPatients } from '../../../server/upstream/features/patients/repository.ts';
import { ledBySmallestRange, shareOf } from '../../../server/upstream/http/range-sample.ts';
import { namesTest, type NamesUpstream } from '../../helpers/upstream-names.ts';
import type { AnyQuery } from '../../../server/upstream/resource/definition.ts';

/*
 * SQLite, a filter with ranges on two fields: the field whose range selects fewer rows (by a random sample) leads,
 * so its index is read and the other field compared per row (http/range-sample.ts).
 */

const test = namesTest;
const DAY = 86_400_000;

describe("the share of a sample a field's conditions select", () => {
  const rows = [{ d: null }, { d: '2026-01-01' }, { d: '2026-02-01' }, { d: '2026-03-01' }];
  test('compares as SQL does: an empty value meets no comparison, only "is empty"', () => {
    expect(shareOf(rows, 'd', [{ d: { gt: '2026-01-15' } }])).toBe(0.5);
    expect(shareOf(rows, 'd', [{ d: { lt: '2026-02-01' } }])).toBe(0.25);
    expect(shareOf(rows, 'd', [{ d: { lte: '2026-02-01', gte: '2026-01-01' } }])).toBe(0.5);
    expect(shareOf(rows, 'd', [{ d: { between: ['2026-01-01', '2026-03-01'] } }])).toBe(0.75);
    expect(shareOf(rows, 'd', [{ d: null }])).toBe(0.25);
    expect(shareOf(rows, 'd', [{ or: [{ d: null }, { d: { lt: '2026-02-01' } }] }])).toBe(0.5);
    expect(shareOf(rows, 'd', [{ d: { gt: '2026-01-15' } }, { d: { lt: '2026-03-01' } }])).toBe(0.25);
    expect(shareOf(rows, 'd', [{ d: '2026-02-01' }])).toBe(0.25);
  });
  test('judges no condition it does not know (SQLite then chooses)', () => {
    expect(shareOf(rows, 'd', [{ d: { like: '2026%' } }])).toBeUndefined();
    expect(shareOf(rows, 'd', [{ d: { neq: '2026-01-01' } }])).toBeUndefined();
    expect(shareOf(rows, 'd', [{ d: { gt: 5 } }])).toBeUndefined();
  });
});

/** 600 patients: `planned` of them planned (aftercare from next month), `recent` with data from today. */
async function withPatients(t: NamesUpstream, planned: number, recent: number) {
  const now = new Date();
  const many = makePatients(seededRandom(5), now, 600, ['coach'], 'range', []);
  const day = (offset: number) => new Date(now.getTime() + offset * DAY).toISOString().slice(0, 10);
  await insertPatients(
    t.storage.db,
    many.map((p, i) => ({
      ...p,
      aftercareStart: i < planned ? day(30) : day(-60),
      aftercareEnd: i < planned ? day(120) : day(60),
      lastDataAt: i >= 600 - recent ? now.toISOString() : new Date(now.getTime() - 10 * DAY).toISOString(),
      costRateId: 'rate-1',
      diagnosisIds: '[]',
    })),
  );
  return { today: day(0), since: new Date(now.getTime() - 2 * DAY).toISOString() };
}

/** The index SQLite reads for the query's rows. */
async function indexRead(t: NamesUpstream, query: AnyQuery): Promise<string> {
  const compiled = query.select(sql<number>`1`.as('one')).compile();
  const plan = await t.storage.db.executeQuery(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]));
  return (plan.rows as { detail: string }[]).map((row) => row.detail).join('; ');
}

async function columnsOf(t: NamesUpstream, index: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from pragma_index_info(${index}) order by seqno`.execute(t.storage.db);
  return rows.map((row) => row.name);
}

describe.skipIf(Boolean(process.env.DATABASE_URL))('a filter with ranges on two fields (SQLite)', () => {
  const cases = [
    { name: 'few planned, many with recent data: the start of aftercare leads', planned: 20, recent: 560, leads: 'aftercareStart' },
    { name: 'many planned, few with recent data: the last data leads', planned: 560, recent: 20, leads: 'lastDataAt' },
  ];
  for (const { name, planned, recent, leads } of cases)
    test(name, async ({ t }) => {
      const { today, since } = await withPatients(t, planned, recent);
      const where = { and: [{ aftercareStart: { gt: today } }, { lastDataAt: { gte: since } }] };
      const scoped = t.storage.db.selectFrom('patients') as unknown as AnyQuery;
      const led = await ledBySmallestRange(t.storage.db, scoped, 'patients', where);
      expect(led).toBeDefined();
      const plan = await indexRead(t, led!);
      const index = /USING (?:COVERING )?INDEX (\w+)/.exec(plan)?.[1];
      expect(index, plan).toBeDefined();
      expect((await columnsOf(t, index!))[0], plan).toBe(leads);
      // The same rows as the filter read as SQLite chooses.
      const ids = async (query: AnyQuery) => (await query.select('patients.id').orderBy('patients.id').execute()).map((row) => row.id);
      const plain = scoped.where(sql`"patients"."aftercareStart" > ${today} and "patients"."lastDataAt" >= ${since}` as never);
      expect(await ids(led!)).toEqual(await ids(plain));
    });

  test('leaves a filter with one sized field to SQLite', async ({ t }) => {
    const { today } = await withPatients(t, 20, 20);
    const scoped = t.storage.db.selectFrom('patients') as unknown as AnyQuery;
    expect(
      await ledBySmallestRange(t.storage.db, scoped, 'patients', { and: [{ aftercareStart: { gt: today } }, { primaryCoachId: 'coach' }] }),
    ).toBeUndefined();
  });
});

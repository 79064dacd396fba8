import { describe, expect } from 'vitest';
import request from 'supertest';
import { fileRowsTest, jsonQuery, type RowsUpstream, type TestCoach } from '../../helpers/upstream-rows.ts';
import { storageBefore } from '../../helpers/upstream-migrations.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { migrate, openStorage } from '../../../server/upstream/db/index.ts';
import { seedScale } from '../../../server/upstream/seed/scale.ts';
import { prepareData } from '../../../server/upstream/seed/index.ts';
import { fillRowIds, pseudonymKey } from '../../../server/upstream/features/statistics/row-ids.ts';
import { migrations } from '../../../server/upstream/db/migrations/index.ts';
import { addDays, dayOf, daysInclusive } from '../../../server/upstream/lib/days.ts';

/*
 * The statistics read stored per-day counts and let the database order and page the detail table. These tests
 * compare every answer with a count made here from the patients themselves, after inserts, changes of the
 * interval or the coach, and deletions (run with DATABASE_URL for PostgreSQL).
 */
const COACHES = ['k1', 'k2', 'k3'];
const TODAY = '2026-06-15';

interface Spell {
  id: string;
  lastName: string;
  firstName: string;
  aftercareStart: string;
  aftercareEnd: string;
  primaryCoachId: string | null;
  lastDataAt: string | null;
}

/** A small deterministic random source, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** 60 patients at random, with few names (so many rows tie on the name and the row id has to decide). */
async function addPatients(u: RowsUpstream): Promise<Map<string, Spell>> {
  const patients = new Map<string, Spell>();
  const next = random(23);
  const names = ['Bäcker', 'Becker', 'Zimmer', 'Özdemir', 'Oster'];
  for (let i = 0; i < 60; i++) {
    const start = addDays(TODAY, Math.floor(next() * 400) - 300);
    const spell: Spell = {
      id: `s${i}`,
      lastName: names[Math.floor(next() * names.length)],
      firstName: next() < 0.5 ? 'Anna' : 'Ben',
      aftercareStart: start,
      aftercareEnd: addDays(start, Math.floor(next() * 200)),
      primaryCoachId: next() < 0.1 ? null : COACHES[Math.floor(next() * COACHES.length)],
      lastDataAt: next() < 0.5 ? `${addDays(TODAY, -Math.floor(next() * 20))}T08:00:00.000Z` : null,
    };
    patients.set(spell.id, spell);
    await u.patient(spell);
  }
  return patients;
}

/** The period of the detail table's tests. */
const period = { from: '2026-03-01', to: '2026-06-15' };

// `patients`: the patients as this file keeps them, changed beside the database by the tests that change them.
const test = fileRowsTest({ now: `${TODAY}T10:00:00.000Z` })
  .extend('admin', { scope: 'file', auto: true }, ({ u }) => u.coach('admin'))
  .extend('health', { scope: 'file', auto: true }, ({ u }) => u.coach('health'))
  .extend('patients', { scope: 'file', auto: true }, async ({ u }) => {
    for (const id of COACHES) await u.coach('coach', id);
    return addPatients(u);
  })
  .extend(
    'get',
    { scope: 'file' },
    ({ u }) =>
      (path: string, who: TestCoach, query: Record<string, unknown>) =>
        request(u.app).get(`/v2/statistics/${path}`).set('Authorization', who.auth).query(jsonQuery(query)),
  )
  .extend(
    'all',
    { scope: 'file' },
    ({ get }) =>
      async (who: TestCoach, order: string) =>
        (await get('patient-detail-statistics', who, { ...period, order, limit: 1000 })).body as Record<string, string | number | null>[],
  )
  .extend('expectFiguresAsCounted', { scope: 'file' }, ({ get, health, patients }) => async () => {
    for (const [from, to] of [
      ['2026-05-01', '2026-06-15'],
      ['2025-09-01', '2026-02-28'],
      // Seven days after the clocks went forward and back (data from 29 March and 26 October counts).
      ['2026-03-01', '2026-04-05'],
      ['2025-10-01', '2025-11-02'],
    ]) {
      for (const coachId of [undefined, 'k1', 'k3']) {
        const query = { from, to, ...(coachId ? { coachId } : {}) };
        const want = expected(patients, from, to, coachId);
        expect((await get('patient-statistics', health, query)).body).toEqual(want.summary);
        expect((await get('daily-patients-in-aftercare', health, query)).body).toEqual(want.daily);
        const detail = await get('patient-detail-statistics', health, { ...query, limit: 1 });
        expect(detail.headers['x-total-count']).toBe(String(want.rows));
      }
    }
  });

/** The figures as the API defines them, counted from the patients kept here. */
function expected(patients: Map<string, Spell>, from: string, to: string, coachId?: string) {
  const all = [...patients.values()].filter((p) => !coachId || p.primaryCoachId === coachId);
  const active = all.filter((p) => p.aftercareStart <= to && to <= p.aftercareEnd);
  const stale = addDays(to, -7);
  return {
    summary: {
      from,
      to,
      total: all.length,
      planned: all.filter((p) => to < p.aftercareStart).length,
      active: active.length,
      completed: all.filter((p) => to > p.aftercareEnd).length,
      startedInPeriod: all.filter((p) => p.aftercareStart >= from && p.aftercareStart <= to).length,
      endedInPeriod: all.filter((p) => p.aftercareEnd >= from && p.aftercareEnd <= to).length,
      activeWithoutDataFor7Days: active.filter((p) => !p.lastDataAt || dayOf(p.lastDataAt) < stale).length,
    },
    daily: Array.from({ length: daysInclusive(from, to) }, (_, i) => addDays(from, i)).map((date) => ({
      date,
      count: all.filter((p) => p.aftercareStart <= date && date <= p.aftercareEnd).length,
    })),
    rows: all.filter((p) => p.aftercareStart <= to && p.aftercareEnd >= from).length,
  };
}

describe('statistics from stored per-day counts', () => {
  test('summary, daily series and row count match the patients, for all and for one coach', async ({ expectFiguresAsCounted }) => {
    await expectFiguresAsCounted();
  });

  test('stay right after patients are added, moved to another interval or coach, and deleted', async ({ u, patients, expectFiguresAsCounted }) => {
    const change = async (id: string, values: Partial<Spell>) => {
      await u.db.updateTable('patients').set(values).where('id', '=', id).execute();
      patients.set(id, { ...(patients.get(id) as Spell), ...values });
    };
    await change('s1', { aftercareStart: '2026-05-20', aftercareEnd: '2026-07-01' });
    await change('s2', { primaryCoachId: 'k1' });
    await change('s3', { primaryCoachId: null, aftercareEnd: '2026-06-01' });
    await change('s4', { lastName: 'Neu' });
    for (const id of ['s5', 's6']) {
      await u.db.deleteFrom('patients').where('id', '=', id).execute();
      patients.delete(id);
    }
    const added: Spell = {
      id: 'late',
      lastName: 'Becker',
      firstName: 'Anna',
      aftercareStart: '2026-06-01',
      aftercareEnd: '2026-09-01',
      primaryCoachId: 'k3',
      lastDataAt: null,
    };
    patients.set(added.id, added);
    await u.patient(added);
    await expectFiguresAsCounted();
  });

  test('count data by its Berlin day, around midnight and the clock changes, as it moves and its patient changes', async ({
    u,
    patients,
    expectFiguresAsCounted,
  }) => {
    // Data late in the evening UTC is already the next day in Berlin: one hour later in winter, two in summer.
    const instants = [
      '2026-06-07T21:59:59.999Z',
      '2026-06-07T22:00:00.000Z',
      '2026-02-20T22:59:59.000Z',
      '2026-02-20T23:00:00.000Z',
      '2026-03-28T22:30:00.000Z',
      '2026-03-28T23:30:00.000Z',
      '2026-03-29T00:59:59.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-03-29T22:30:00.000Z',
      '2025-10-25T22:30:00.000Z',
      '2025-10-25T23:30:00.000Z',
      '2025-10-26T00:59:59.000Z',
      '2025-10-26T01:00:00.000Z',
      '2025-10-26T22:30:00.000Z',
    ];
    const spells: Spell[] = instants.map((lastDataAt, i) => ({
      id: `t${i}`,
      lastName: 'Zeit',
      firstName: 'Anna',
      aftercareStart: '2025-09-15',
      aftercareEnd: i % 3 === 0 ? '2026-04-01' : '2026-08-01',
      primaryCoachId: COACHES[i % COACHES.length],
      lastDataAt,
    }));
    for (const spell of spells) {
      patients.set(spell.id, spell);
      await u.patient(spell);
    }
    await expectFiguresAsCounted();
    const change = async (id: string, values: Partial<Spell>) => {
      await u.db.updateTable('patients').set(values).where('id', '=', id).execute();
      patients.set(id, { ...(patients.get(id) as Spell), ...values });
    };
    // New data, the same day later, none any more, a shorter aftercare, another coach.
    await change('t1', { lastDataAt: '2026-06-14T09:00:00.000Z' });
    await change('t4', { lastDataAt: '2026-03-28T23:45:00.000Z' });
    await change('t5', { lastDataAt: null });
    await change('t7', { aftercareEnd: '2026-03-30' });
    await change('t8', { primaryCoachId: 'k2', lastDataAt: '2026-02-26T12:00:00.000Z' });
    await u.db.deleteFrom('patients').where('id', '=', 't9').execute();
    patients.delete('t9');
    await expectFiguresAsCounted();
  });
});

describe('the detail table ordered and paged by the database', () => {
  test('pages of any size put together give the whole table, each row once, for every order', async ({ admin, get, all }) => {
    for (const order of [
      'lastName ASC',
      'lastName DESC',
      'firstName ASC',
      'status ASC',
      'status DESC',
      'phoneCoachings ASC',
      'lastDataAt DESC',
      'aftercareEnd DESC',
      'primaryCoachName ASC',
      'primaryCoachName DESC',
      'daysInAftercare DESC',
    ]) {
      const whole = (await all(admin, order)).map((r) => r.rowId);
      const pieces: unknown[] = [];
      for (let skip = 0; skip < whole.length; skip += 7) {
        const page = await get('patient-detail-statistics', admin, { ...period, order, limit: 7, skip });
        pieces.push(...page.body.map((r: { rowId: string }) => r.rowId));
      }
      expect(pieces).toEqual(whole);
      expect(new Set(whole).size).toBe(whole.length);
    }
  });

  test('by the coach: the rows without a coach first, then coach by coach in the order of their names, each by row id', async ({ u, admin, all, get }) => {
    const ofK1 = async (order: string) =>
      ((await get('patient-detail-statistics', admin, { ...period, coachId: 'k1', order, limit: 1000 })).body as { rowId: string }[]).map((r) => r.rowId);
    const k1 = await ofK1('rowId ASC');
    expect(k1.length).toBeGreaterThan(3);
    expect(await ofK1('primaryCoachName DESC')).toEqual(k1);
    const everyone = (await all(admin, 'lastName ASC')).map((r) => String(r.rowId)).sort();
    for (const direction of ['ASC', 'DESC']) {
      const rows = await all(admin, `primaryCoachName ${direction}`);
      expect(rows.map((r) => String(r.rowId)).sort()).toEqual(everyone);
      const sign = direction === 'ASC' ? 1 : -1;
      const names = [...new Set(rows.map((r) => String(r.primaryCoachName)))];
      expect(names).toContain('');
      expect(names.length).toBeGreaterThan(2);
      expect(names).toEqual([...names].sort((a, b) => sign * (a.toLowerCase() < b.toLowerCase() ? -1 : 1)));
      for (const name of names) {
        const ids = rows.filter((r) => r.primaryCoachName === name).map((r) => String(r.rowId));
        expect(ids).toEqual([...ids].sort());
      }
    }
    // Two coaches of one name: their patients are one group, by row id.
    const k2 = await u.db
      .selectFrom('coaches')
      .select(['firstName', 'lastName', 'firstNameKey', 'lastNameKey'])
      .where('id', '=', 'k2')
      .executeTakeFirstOrThrow();
    const k3 = await u.db
      .selectFrom('coaches')
      .select(['firstName', 'lastName', 'firstNameKey', 'lastNameKey'])
      .where('id', '=', 'k3')
      .executeTakeFirstOrThrow();
    await u.db.updateTable('coaches').set(k2).where('id', '=', 'k3').execute();
    try {
      const rows = await all(admin, 'primaryCoachName DESC');
      const twins = rows.filter((r) => r.primaryCoachName === `${k2.firstName} ${k2.lastName}`).map((r) => String(r.rowId));
      const k2k3 = rows.filter((r) => ['k2', 'k3'].includes(String(r.primaryCoachId)));
      expect(twins).toHaveLength(k2k3.length);
      expect(twins).toEqual([...twins].sort());
    } finally {
      await u.db.updateTable('coaches').set(k3).where('id', '=', 'k3').execute();
    }
  });

  test('a page asked after rows entered the period meanwhile is the page at that skip of the table as it is now', async ({ u, admin, patients, get, all }) => {
    const order = 'lastName ASC';
    const first = await get('patient-detail-statistics', admin, { ...period, order, limit: 5 });
    expect(first.body).toHaveLength(5);
    await u.patient({ id: 'aaron', lastName: 'Aaron', aftercareStart: '2026-04-01', aftercareEnd: '2026-05-01', primaryCoachId: 'k1' });
    patients.set('aaron', {
      id: 'aaron',
      lastName: 'Aaron',
      firstName: 'Erika',
      aftercareStart: '2026-04-01',
      aftercareEnd: '2026-05-01',
      primaryCoachId: 'k1',
      lastDataAt: null,
    });
    const second = await get('patient-detail-statistics', admin, { ...period, order, limit: 5, skip: 5 });
    const whole = await all(admin, order);
    expect(second.body.map((r: { rowId: string }) => r.rowId)).toEqual(whole.slice(5, 10).map((r) => r.rowId));
    expect(second.body[0].rowId).toBe(first.body[4].rowId);
  });

  test('by days in aftercare: every page is the part of the order the rows show, the patients partly in the period merged with those in it all along', async ({
    u,
    admin,
    patients,
    get,
    all,
  }) => {
    // Four patients ending 20 days into the period and four whose 20 days of aftercare lie within it: equal days,
    // which only their row ids order.
    for (let i = 0; i < 8; i++) {
      const start = i < 4 ? addDays(period.from, -10) : addDays(period.from, 5);
      const spell: Spell = {
        id: `twenty-${i}`,
        lastName: 'Zwanzig',
        firstName: 'Ida',
        aftercareStart: start,
        aftercareEnd: i < 4 ? addDays(period.from, 20) : addDays(start, 20),
        primaryCoachId: 'k1',
        lastDataAt: null,
      };
      patients.set(spell.id, spell);
      await u.patient(spell);
    }
    // Three whose aftercare is one day within the period, as short as the shortest ending in it, with row ids before
    // every other: fewest first, a page of one must take them before the patient ending in the period, which alone
    // says how far the aftercare within it is read (its days: the page's reach).
    const shortest = Math.min(
      ...[...patients.values()]
        .filter((p) => p.aftercareStart <= period.from && p.aftercareEnd >= period.from && p.aftercareEnd < period.to)
        .map((p) => daysInclusive(period.from, p.aftercareEnd)),
    );
    for (let i = 0; i < 3; i++) {
      const start = addDays(period.from, 30 + i);
      const spell: Spell = {
        id: `short-${i}`,
        lastName: 'Kurz',
        firstName: 'Ida',
        aftercareStart: start,
        aftercareEnd: addDays(start, shortest - 1),
        primaryCoachId: 'k2',
        lastDataAt: null,
      };
      patients.set(spell.id, spell);
      await u.patient(spell);
      await u.db
        .updateTable('patients')
        .set({ statisticsRowId: `pseudo-${'0'.repeat(15)}${i}` })
        .where('id', '=', spell.id)
        .execute();
    }
    for (const direction of ['ASC', 'DESC'] as const) {
      const order = `daysInAftercare ${direction}`;
      const rows = await all(admin, 'rowId ASC');
      const sign = direction === 'ASC' ? 1 : -1;
      const expected = [...rows]
        .sort((a, b) => sign * (Number(a.daysInAftercare) - Number(b.daysInAftercare)) || (String(a.rowId) < String(b.rowId) ? -1 : 1))
        .map((r) => r.rowId);
      // Ending in the period, starting in it, and the whole aftercare within it: all three kinds are there.
      const kinds = rows.map((r) => `${String(r.aftercareStart) > period.from}${String(r.aftercareEnd) < period.to}`);
      expect(new Set(kinds).size).toBe(4);
      expect((await all(admin, order)).map((r) => r.rowId)).toEqual(expected);
      for (const limit of [1, 3, 7]) {
        const pieces: unknown[] = [];
        for (let skip = 0; skip < expected.length; skip += limit) {
          const page = await get('patient-detail-statistics', admin, { ...period, order, limit, skip });
          pieces.push(...page.body.map((r: { rowId: string }) => r.rowId));
        }
        expect(pieces, `${order}, pages of ${limit}`).toEqual(expected);
      }
    }
  });

  test('rows equal in the sorted fields follow their row id ascending, in both directions', async ({ admin, all }) => {
    for (const direction of ['ASC', 'DESC']) {
      const rows = await all(admin, `lastName ${direction}`);
      const sign = direction === 'ASC' ? 1 : -1;
      for (let i = 1; i < rows.length; i++) {
        const [a, b] = [rows[i - 1], rows[i]];
        const names = [String(a.lastName), String(b.lastName)].map((n) => n.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase());
        const firsts = [String(a.firstName), String(b.firstName)];
        const byName = names[0] === names[1] ? (firsts[0] === firsts[1] ? 0 : firsts[0] < firsts[1] ? -1 : 1) : names[0] < names[1] ? -1 : 1;
        expect(sign * byName).toBeLessThanOrEqual(0);
        if (byName === 0) expect(String(a.rowId) < String(b.rowId)).toBe(true);
      }
    }
  });

  test('for a caller who may open some patients, the rows without a name come first by row id, then the named ones by name', async ({
    u,
    admin,
    health,
    all,
    get,
  }) => {
    await u.db
      .insertInto('patient_coaches')
      .values([
        { patientId: 's10', coachId: health.id, createdAt: '2026-06-01T00:00:00.000Z' },
        { patientId: 's11', coachId: health.id, createdAt: '2026-06-01T00:00:00.000Z' },
      ])
      .execute();
    try {
      const rows = await all(health, 'lastName ASC');
      const hidden = rows.filter((r) => r.lastName === null);
      const named = rows.filter((r) => r.lastName !== null);
      expect(named.length).toBeGreaterThan(0);
      expect(rows).toEqual([...hidden, ...named]);
      expect(hidden.map((r) => r.rowId)).toEqual(hidden.map((r) => String(r.rowId)).sort());
      const admins = (await all(admin, 'lastName ASC')).filter((r) => named.some((n) => n.rowId === r.rowId));
      expect(named).toEqual(admins);
      const descending = await all(health, 'lastName DESC');
      expect(descending.map((r) => r.rowId)).toEqual([...named.reverse(), ...hidden].map((r) => r.rowId));
      // Pages of one, across the end of the rows without a name, for each field that opens a patient.
      for (const order of ['lastName ASC', 'lastName DESC', 'firstName ASC', 'patientCode DESC', 'patientId ASC']) {
        const whole = (await all(health, order)).map((r) => r.rowId);
        const pages: unknown[] = [];
        for (let skip = 0; skip <= whole.length; skip++) {
          pages.push(...(await get('patient-detail-statistics', health, { ...period, order, limit: 1, skip })).body.map((r: { rowId: string }) => r.rowId));
        }
        expect(pages, order).toEqual(whole);
        const ascending = order.endsWith('ASC');
        const without = whole.filter((id) => hidden.some((r) => r.rowId === id));
        expect(ascending ? whole.slice(0, without.length) : whole.slice(whole.length - without.length), order).toEqual(without.sort());
      }
    } finally {
      await u.db.deleteFrom('patient_coaches').where('coachId', '=', health.id).execute();
    }
  });

  test('a patient added after earlier calls gets a row id that stays the same for every caller', async ({ u, admin, health, patients, all }) => {
    await u.patient({ id: 'newcomer', lastName: 'Aal', aftercareStart: '2026-04-01', aftercareEnd: '2026-08-01', primaryCoachId: 'k2' });
    patients.set('newcomer', {
      id: 'newcomer',
      lastName: 'Aal',
      firstName: 'Erika',
      aftercareStart: '2026-04-01',
      aftercareEnd: '2026-08-01',
      primaryCoachId: 'k2',
      lastDataAt: null,
    });
    const named = (await all(admin, 'lastName ASC'))[0];
    expect(named).toMatchObject({ patientId: 'newcomer', lastName: 'Aal' });
    expect(named.rowId).toMatch(/^pseudo-[0-9a-f]{16}$/);
    const hidden = await all(health, 'daysInAftercare DESC');
    expect(hidden.filter((r) => r.rowId === named.rowId)).toHaveLength(1);
  });
});

test('the counts migration counts the patients there were before it, and its down step removes what it added', async () => {
  const { db, schema, close } = await storageBefore('120-statistics-at-size');
  try {
    const at = '2026-11-22T09:00:00.000Z';
    await db.insertInto('coaches').values({ id: 'c1', email: 'c1@example.org', firstName: 'C', lastName: 'One', createdAt: at, updatedAt: at }).execute();
    const patient = (id: string, start: string, end: string, coach: string | null) => ({
      id,
      patientCode: `PC-${id}`,
      firstName: 'A',
      lastName: 'B',
      birthDate: '1970-01-01',
      gender: 'female',
      clinic: 'K',
      aftercareStart: start,
      aftercareEnd: end,
      primaryCoachId: coach,
      diagnosisIds: '[]',
      appointments: '[]',
      createdAt: at,
      updatedAt: at,
    });
    await db
      .insertInto('patients')
      .values([patient('a', '2026-01-01', '2026-03-01', 'c1'), patient('b', '2026-01-01', '2026-02-01', null)])
      .execute();
    await migrate(db, schema);
    const counts = await db.selectFrom('aftercare_day_counts').select(['scope', 'day', 'starts', 'ends']).orderBy('scope').orderBy('day').execute();
    expect(counts.map((c) => ({ ...c, starts: Number(c.starts), ends: Number(c.ends) }))).toEqual([
      { scope: '*', day: '2026-01-01', starts: 2, ends: 0 },
      { scope: '*', day: '2026-02-01', starts: 0, ends: 1 },
      { scope: '*', day: '2026-03-01', starts: 0, ends: 1 },
      { scope: 'coach:c1', day: '2026-01-01', starts: 1, ends: 0 },
      { scope: 'coach:c1', day: '2026-03-01', starts: 0, ends: 1 },
    ]);
    // Down steps run newest first, down to this one (122 counts with triggers of its own: its test follows).
    for (const name of Object.keys(migrations).sort().reverse()) {
      await migrations[name].down?.(db);
      if (name === '120-statistics-at-size') break;
    }
    await expect(db.selectFrom('aftercare_day_counts').selectAll().execute()).rejects.toThrow();
    // Without the triggers a patient can be written as before.
    await db
      .insertInto('patients')
      .values(patient('c', '2026-01-01', '2026-02-01', 'c1'))
      .execute();
    await db.deleteFrom('patients').where('id', '=', 'a').execute();
    expect((await db.selectFrom('patients').select('id').orderBy('id').execute()).map((p) => p.id)).toEqual(['b', 'c']);
  } finally {
    await close();
  }
});

test('the recent-data migration counts the patients there were before it, and its down step removes what it added', async () => {
  const { db, schema, close } = await storageBefore('122-recent-data-counts');
  try {
    const at = '2026-11-22T09:00:00.000Z';
    await db.insertInto('coaches').values({ id: 'c1', email: 'c1@example.org', firstName: 'C', lastName: 'One', createdAt: at, updatedAt: at }).execute();
    const patient = (id: string, end: string, lastDataAt: string | null, coach: string | null) => ({
      id,
      patientCode: `PC-${id}`,
      firstName: 'A',
      lastName: 'B',
      birthDate: '1970-01-01',
      gender: 'female',
      clinic: 'K',
      aftercareStart: '2026-01-01',
      aftercareEnd: end,
      primaryCoachId: coach,
      lastDataAt,
      diagnosisIds: '[]',
      appointments: '[]',
      createdAt: at,
      updatedAt: at,
    });
    // Data on 10 January counts to the 17th; on 31 March (Berlin, 1 April 00:30) to 8 April, cut by the end on the 5th.
    await db
      .insertInto('patients')
      .values([
        patient('a', '2026-06-01', '2026-01-10T12:00:00.000Z', 'c1'),
        patient('b', '2026-04-05', '2026-03-31T22:30:00.000Z', null),
        patient('c', '2026-06-01', null, 'c1'),
        patient('d', '2026-06-01', '2025-12-01T12:00:00.000Z', 'c1'),
      ])
      .execute();
    await migrate(db, schema);
    const counts = await db.selectFrom('recent_data_day_counts').select(['scope', 'day', 'starts', 'ends']).orderBy('scope').orderBy('day').execute();
    expect(counts.map((c) => ({ ...c, starts: Number(c.starts), ends: Number(c.ends) }))).toEqual([
      { scope: '*', day: '2026-01-01', starts: 2, ends: 0 },
      { scope: '*', day: '2026-01-17', starts: 0, ends: 1 },
      { scope: '*', day: '2026-04-05', starts: 0, ends: 1 },
      { scope: 'coach:c1', day: '2026-01-01', starts: 1, ends: 0 },
      { scope: 'coach:c1', day: '2026-01-17', starts: 0, ends: 1 },
    ]);
    await migrations['122-recent-data-counts'].down?.(db);
    await expect(db.selectFrom('recent_data_day_counts').selectAll().execute()).rejects.toThrow();
    await db.updateTable('patients').set({ lastDataAt: at }).where('id', '=', 'c').execute();
    await db.deleteFrom('patients').where('id', '=', 'a').execute();
    expect((await db.selectFrom('patients').select('id').orderBy('id').execute()).map((p) => p.id)).toEqual(['b', 'c', 'd']);
  } finally {
    await close();
  }
});

// SQLite's plan (EXPLAIN QUERY PLAN); on PostgreSQL the fill runs ANALYZE on the column, which every session sees.
test.skipIf(!!process.env.DATABASE_URL)(
  'a fill of many row ids renews the statistics the reading connections plan with: the index, not a walk of all patients',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'row-ids-'));
    const storage = await openStorage({ dataDir: dir });
    try {
      await prepareData(storage.db, { demoData: true });
      await seedScale(storage.db, { patients: 1200 });
      // As after the migration that added the column: every row id empty, and the statistics taken then. The probe
      // reads a column the index does not hold, as a page of the detail table does.
      await sql`update patients set "statisticsRowId" = null`.execute(storage.db);
      await sql`analyze`.execute(storage.db);
      const plan = async () =>
        (await sql<{ detail: string }>`explain query plan select "lastName" from patients where "statisticsRowId" = ${'pseudo-x'}`.execute(storage.db)).rows
          .map((r) => r.detail)
          .join(' | ');
      expect(await plan()).toMatch(/^SCAN patients/);
      await fillRowIds(storage.db, () => pseudonymKey(storage.db));
      expect(await plan()).toMatch(/USING (COVERING )?INDEX patients_statistics_row_period/);
    } finally {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
  60_000,
);

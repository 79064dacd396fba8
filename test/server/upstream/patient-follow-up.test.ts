import { expect } from 'vitest';
import request from 'supertest';
import { signedIn, upstreamTest } from '../../helpers/upstream-test.ts';

/* The follow-up day (Wiedervorlage) the dashboard's worklist sets: a patient field written with PATCH. */

const test = upstreamTest().extend('coach', { auto: true }, ({ t }) => signedIn(t, 'coach'));

const as = (token: string) => ({ Authorization: `Bearer ${token}` });
const MASTER_DATA = {
  firstName: 'Eva',
  lastName: 'Müller',
  birthDate: '1970-05-04',
  gender: 'female',
  email: null,
  phone: '030 1',
  clinic: 'Damp',
  aftercareStart: '2026-09-01',
  aftercareEnd: '2027-02-28',
  primaryCoachId: 'coach',
  diagnosisIds: [],
  costRateId: null,
};

test("a coach sets, reads and clears it; each change is in the patient's history", async ({ t, coach }) => {
  const set = await request(t.app).patch('/v2/patients/p1').set(as(coach)).send({ followUpAt: '2026-12-01' });
  expect(set.status).toBe(200);
  expect(set.body.followUpAt).toBe('2026-12-01');
  expect((await request(t.app).get('/v2/patients/p1').set(as(coach))).body.followUpAt).toBe('2026-12-01');
  const cleared = await request(t.app).patch('/v2/patients/p1').set(as(coach)).send({ followUpAt: null });
  expect(cleared.body.followUpAt).toBeNull();
  const history = await request(t.app)
    .get('/v2/audit-log')
    .set(as(coach))
    .query({ filter: JSON.stringify({ where: { patientId: 'p1' } }) });
  expect(history.body.map((e: { changes: Record<string, unknown> }) => e.changes.followUpAt)).toEqual([
    { before: '2026-12-01', after: null },
    { before: null, after: '2026-12-01' },
  ]);
});

test('saving the master data (PUT) leaves it as it is', async ({ t, coach }) => {
  await request(t.app).patch('/v2/patients/p1').set(as(coach)).send({ followUpAt: '2026-12-01' }).expect(200);
  const put = await request(t.app).put('/v2/patients/p1').set(as(coach)).send(MASTER_DATA);
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  expect(put.body.followUpAt).toBe('2026-12-01');
});

test('lists filter on it, and only a real day is accepted', async ({ t, coach }) => {
  await request(t.app).patch('/v2/patients/p1').set(as(coach)).send({ followUpAt: '2026-12-01' }).expect(200);
  const admin = await t.login('admin@example.org');
  const due = await request(t.app)
    .get('/v2/patients')
    .set(as(admin))
    .query({ filter: JSON.stringify({ where: { or: [{ followUpAt: null }, { followUpAt: { lte: '2026-11-22' } }] } }) });
  expect(due.body.map((p: { id: string }) => p.id).sort()).toEqual(['p2', 'p3']);
  for (const bad of ['2026-13-01', 'morgen', 20261201]) {
    expect((await request(t.app).patch('/v2/patients/p1').set(as(coach)).send({ followUpAt: bad })).status).toBe(422);
  }
});

test('a coach who may not open the patient may not set it', async ({ t, coach }) => {
  expect((await request(t.app).patch('/v2/patients/p2').set(as(coach)).send({ followUpAt: '2026-12-01' })).status).toBe(403);
});

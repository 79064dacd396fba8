import { expect } from 'vitest';
import request from 'supertest';
import { upstreamTest } from '../../helpers/upstream-test.ts';

// Both ways to create a patient follow one rule for its primary coach (lib/patients.ts initialPrimaryCoach): a coach
// creates into their own caseload whatever the body names; an administrator's patient gets the coach the body
// names, else the administrator, and only an administrator may leave it empty on purpose.
const test = upstreamTest();
const as = (token: string) => ({ Authorization: `Bearer ${token}` });
const patient = { firstName: 'Ida', lastName: 'Lorenz', birthDate: '1960-01-02', aftercareStart: '2026-11-23', aftercareEnd: '2027-05-22' };

const ROUTES = {
  'POST /patients': { path: '/v2/patients', read: (body: { primaryCoachId?: string | null }) => body.primaryCoachId },
  'POST /coaches/createPatientForMedian': {
    path: '/v2/coaches/createPatientForMedian',
    read: (body: { patient: { primaryCoachId?: string | null } }) => body.patient.primaryCoachId,
  },
} as const;
// [who creates, what the body says about primaryCoachId, the primary coach the patient gets]
const CASES: [string, Record<string, unknown>, string | null][] = [
  ['coach', {}, 'coach'],
  ['coach', { primaryCoachId: null }, 'coach'],
  ['coach', { primaryCoachId: 'admin' }, 'coach'],
  ['coach', { primaryCoachId: 'coach2' }, 'coach'],
  ['admin', {}, 'admin'],
  ['admin', { primaryCoachId: null }, null],
  ['admin', { primaryCoachId: 'coach' }, 'coach'],
];

for (const [name, route] of Object.entries(ROUTES)) {
  test.for(CASES)(`${name}: created by %s with %j, the patient's primary coach is %s`, async ([who, extra, expected], { upstream }) => {
    const t = await upstream();
    const token = await t.login(`${who}@example.org`);
    const res = await request(t.app)
      .post(route.path)
      .set(as(token))
      .send({ ...patient, ...extra });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(route.read(res.body)).toBe(expected);
  });

  test.for(['coach', 'admin'])(`${name}: an empty primaryCoachId from %s is refused, not read as "none"`, async (who, { upstream }) => {
    const t = await upstream();
    const token = await t.login(`${who}@example.org`);
    const res = await request(t.app)
      .post(route.path)
      .set(as(token))
      .send({ ...patient, primaryCoachId: '' });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([expect.objectContaining({ path: 'primaryCoachId' })]);
  });
}

test('the three calls that create patients count against one limit per coach, trial accesses included: 429 with Retry-After beyond it', async ({
  upstream,
}) => {
  const t = await upstream({ rateLimits: { patientsPerCoach: 3 } });
  const coach = await t.login('coach@example.org');
  const create = {
    patients: () => request(t.app).post('/v2/patients').set(as(coach)).send(patient),
    median: () => request(t.app).post('/v2/coaches/createPatientForMedian').set(as(coach)).send(patient),
    trial: () => request(t.app).get('/v2/coaches/create-trial-access').set(as(coach)),
  };
  for (const call of Object.values(create)) expect((await call()).status).toBe(201);
  for (const call of Object.values(create)) {
    const limited = await call();
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  }
  const count = await t.storage.db.selectFrom('patients').select('id').where('primaryCoachId', '=', 'coach').execute();
  expect(count).toHaveLength(4);
  // Per coach: a colleague still creates.
  const colleague = await t.login('coach2@example.org');
  expect((await request(t.app).post('/v2/patients').set(as(colleague)).send(patient)).status).toBe(201);
});

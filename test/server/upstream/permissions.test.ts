import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import request from 'supertest';
import { createTestUpstream, type TestUpstream } from '../../helpers/upstream-app.ts';
import { issueToken } from '../../../server/upstream/features/auth/repository.ts';

type Role = 'admin' | 'coach' | 'health' | 'locked' | 'anonymous';
/** 'ok' = any 2xx. Locked and anonymous callers always get 401, so rows name only the three active roles. */
type Expect = 'ok' | 403;
interface Row {
  call: string;
  body?: unknown;
  admin: Expect;
  coach: Expect;
  health: Expect;
}

const ok = 'ok' as const;
const coachBody = { email: 'neu@example.org', firstName: 'Neu', lastName: 'Coach' };
const patientBody = { firstName: 'Jens', lastName: 'Berger', birthDate: '1966-02-03', aftercareStart: '2026-10-01', aftercareEnd: '2027-01-31' };
const reference: Record<string, { id: string; body: Record<string, unknown>; patch: Record<string, unknown> }> = {
  '/cost-rates': { id: 'rate-1', body: { name: 'IRENA Gruppe', amountCents: 2450, unit: 'session' }, patch: { amountCents: 2500 } },
  '/devices': { id: 'dev-1', body: { name: 'Waage', type: 'scale', serialNumber: 'WB-1' }, patch: { name: 'Waage 2' } },
  '/diagnosis': { id: 'dx-m54', body: { code: 'G35', label: 'Multiple Sklerose' }, patch: { label: 'Kreuzschmerz, lumbal' } },
  '/replicationEndpoint': { id: 'repl-1', body: { name: 'Replikat', protocol: 'https' }, patch: { port: 8443 } },
  '/surveys': { id: 'survey-1', body: { title: 'Schlaf', questions: [{ id: 'q', text: 'Wie schlafen Sie?', type: 'text' }] }, patch: { active: false } },
};

// Order matters within one role's instance: reads and writes first, link/connect and deletes last.
const rows: Row[] = [
  { call: 'GET /auth/me', admin: ok, coach: ok, health: ok },
  { call: 'PATCH /auth/me/update-password', body: { oldPassword: 'Demo-Passwort-1', newPassword: 'Demo-Passwort-1' }, admin: ok, coach: ok, health: ok },
  { call: 'GET /coaches', admin: ok, coach: ok, health: ok },
  { call: 'GET /coaches/coach2', admin: ok, coach: ok, health: ok },
  { call: 'GET /coaches/isCoachLocked', admin: ok, coach: ok, health: ok },
  { call: 'POST /coaches', body: coachBody, admin: ok, coach: 403, health: 403 },
  { call: 'PUT /coaches/coach2', body: { email: 'coach2@example.org', firstName: 'Zwei', lastName: 'Coach' }, admin: ok, coach: 403, health: 403 },
  { call: 'PATCH /coaches/coach2', body: { phone: '030 1' }, admin: ok, coach: 403, health: 403 },
  { call: 'PATCH /coaches/coach', body: { phone: '030 2' }, admin: ok, coach: ok, health: 403 },
  { call: 'PATCH /coaches/coach', body: { isHealthManager: true }, admin: ok, coach: 403, health: 403 },
  { call: 'POST /coaches/coach2/send-verification-email', admin: ok, coach: 403, health: 403 },
  { call: 'POST /coaches/coach/reset-password', admin: ok, coach: ok, health: 403 },
  { call: 'GET /coaches/coach/patients', admin: ok, coach: ok, health: 403 },
  { call: 'POST /coaches/coach/create-patient-token', body: { patientId: 'p1' }, admin: ok, coach: ok, health: 403 },
  { call: 'POST /coaches/coach/create-patient-token', body: { patientId: 'p2' }, admin: 403, coach: 403, health: 403 },
  { call: 'POST /coaches/createPatientForMedian', body: patientBody, admin: ok, coach: ok, health: ok },
  { call: 'GET /coaches/create-trial-access', admin: ok, coach: ok, health: ok },
  { call: 'GET /patients', admin: ok, coach: ok, health: ok },
  { call: 'GET /patients/p1', admin: ok, coach: ok, health: 403 },
  { call: 'GET /patients/p2', admin: ok, coach: 403, health: 403 },
  { call: 'POST /patients', body: patientBody, admin: ok, coach: ok, health: ok },
  { call: 'PUT /patients/p1', body: patientBody, admin: ok, coach: ok, health: 403 },
  { call: 'PATCH /patients/p2', body: { clinic: 'Reha-Klinik Damp' }, admin: ok, coach: 403, health: 403 },
  { call: 'GET /comments', admin: ok, coach: ok, health: ok },
  { call: 'GET /comments/c1', admin: ok, coach: ok, health: 403 },
  { call: 'GET /comments/c2', admin: ok, coach: 403, health: 403 },
  { call: 'POST /comments', body: { patientId: 'p1', text: 'Anruf' }, admin: ok, coach: ok, health: 403 },
  { call: 'POST /comments', body: { patientId: 'p2', text: 'Anruf' }, admin: ok, coach: 403, health: 403 },
  { call: 'PATCH /comments/c1', body: { text: 'Korrigiert' }, admin: ok, coach: ok, health: 403 },
  { call: 'PUT /comments/c2', body: { text: 'Korrigiert' }, admin: ok, coach: 403, health: 403 },
  { call: 'GET /externalComments', admin: ok, coach: ok, health: ok },
  { call: 'GET /externalComments/x1', admin: ok, coach: ok, health: 403 },
  { call: 'GET /externalComments/x2', admin: ok, coach: 403, health: 403 },
  { call: 'POST /externalComments', body: { patientId: 'p1', text: 'x' }, admin: 403, coach: 403, health: 403 },
  { call: 'DELETE /externalComments/x1', admin: 403, coach: 403, health: 403 },
  { call: 'GET /synced-patients', admin: ok, coach: ok, health: ok },
  { call: 'GET /synced-patients/p1', admin: ok, coach: ok, health: 403 },
  { call: 'GET /synced-patients/p2', admin: ok, coach: 403, health: 403 },
  { call: 'GET /patientTokens', admin: ok, coach: ok, health: ok },
  { call: 'POST /patientTokens', body: { patientId: 'p1' }, admin: ok, coach: ok, health: 403 },
  { call: 'POST /patientTokens', body: { patientId: 'p2' }, admin: ok, coach: 403, health: 403 },
  { call: 'POST /patientTokens', body: { coachId: 'coach2' }, admin: ok, coach: 403, health: 403 },
  { call: 'POST /patientTokens', body: {}, admin: ok, coach: ok, health: ok },
  ...Object.entries(reference).flatMap(([path, r]): Row[] => [
    { call: `GET ${path}`, admin: ok, coach: ok, health: ok },
    { call: `GET ${path}/${r.id}`, admin: ok, coach: ok, health: ok },
    { call: `POST ${path}`, body: r.body, admin: ok, coach: 403, health: 403 },
    { call: `PATCH ${path}/${r.id}`, body: r.patch, admin: ok, coach: 403, health: 403 },
  ]),
  { call: 'PUT /devices/dev-1', body: { name: 'Tracker', type: 'activity-tracker', serialNumber: 'FB-0001' }, admin: ok, coach: 403, health: 403 },
  { call: 'POST /coaches/health/link-patient/p1', admin: ok, coach: ok, health: 403 },
  { call: 'POST /coaches/connect', body: { patientCode: 'CD-6789' }, admin: ok, coach: 403, health: 403 },
  ...Object.entries(reference).map(([path, r]): Row => ({ call: `DELETE ${path}/${r.id}`, admin: ok, coach: 403, health: 403 })),
  { call: 'DELETE /comments/c1', admin: ok, coach: ok, health: 403 },
  { call: 'DELETE /patients/p3', admin: ok, coach: 403, health: 403 },
  { call: 'DELETE /coaches/coach2', admin: ok, coach: 403, health: 403 },
];

const roles: Role[] = ['admin', 'coach', 'health', 'locked', 'anonymous'];

describe.each(roles)('as %s', (role) => {
  let t: TestUpstream;
  let token: string | undefined;
  beforeAll(async () => {
    t = await createTestUpstream();
    if (role === 'locked') token = (await issueToken(t.app.upstream, 'locked', 'access', 3600)).token;
    else if (role !== 'anonymous') token = await t.login(`${role}@example.org`);
  });
  afterAll(() => t.close());

  test.each(rows.map((row, i) => ({ ...row, i })))('$call #$i', async (row) => {
    const [method, path] = row.call.split(' ');
    let req = request(t.app)[method.toLowerCase() as 'get'](`/v2${path}`);
    if (token) req = req.set('Authorization', `Bearer ${token}`);
    const res = row.body === undefined ? await req : await req.send(row.body as object);
    const expected = role === 'locked' || role === 'anonymous' ? 401 : row[role];
    if (expected === 'ok') expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(200);
    if (expected === 'ok') expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    else {
      expect(res.status, JSON.stringify(res.body)).toBe(expected);
      expect(res.body.error.statusCode).toBe(expected);
    }
  });
});

test('a coach sees in lists only the patients, comments and codes of patients linked to them', async () => {
  const t = await createTestUpstream();
  const token = await t.login('coach@example.org');
  const get = (path: string) => request(t.app).get(`/v2${path}`).set('Authorization', `Bearer ${token}`);
  expect((await get('/patients')).body.map((p: { id: string }) => p.id)).toEqual(['p1']);
  expect((await get('/comments')).body.map((c: { id: string }) => c.id)).toEqual(['c1']);
  expect((await get('/externalComments')).body.map((c: { id: string }) => c.id)).toEqual(['x1']);
  // Linking through patient_coaches opens the patient to the coach.
  await t.storage.db.insertInto('patient_coaches').values({ patientId: 'p2', coachId: 'coach', createdAt: '2026-11-22T09:00:00.000Z' }).execute();
  const res = await get('/patients');
  expect(res.body.map((p: { id: string }) => p.id).sort()).toEqual(['p1', 'p2']);
  expect(res.headers['x-total-count']).toBe('2');
  await t.close();
});

test("a coach may not change a colleague's comment on a shared patient, but an admin may", async () => {
  const t = await createTestUpstream();
  await t.storage.db.insertInto('patient_coaches').values({ patientId: 'p2', coachId: 'coach', createdAt: '2026-11-22T09:00:00.000Z' }).execute();
  const coach = await t.login('coach@example.org');
  const admin = await t.login('admin@example.org');
  expect((await request(t.app).get('/v2/comments/c2').set('Authorization', `Bearer ${coach}`)).status).toBe(200);
  expect((await request(t.app).patch('/v2/comments/c2').set('Authorization', `Bearer ${coach}`).send({ text: 'x' })).status).toBe(403);
  expect((await request(t.app).delete('/v2/comments/c2').set('Authorization', `Bearer ${coach}`)).status).toBe(403);
  expect((await request(t.app).patch('/v2/comments/c2').set('Authorization', `Bearer ${admin}`).send({ text: 'x' })).status).toBe(200);
  await t.close();
});

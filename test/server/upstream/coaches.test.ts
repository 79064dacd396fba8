import { afterEach, describe, expect, test } from 'vitest';
import request from 'supertest';
import * as v from 'valibot';
import { createTestUpstream, type TestUpstream } from '../../helpers/upstream-app.ts';
import { PatientAccessSchema, PatientTokenSchema } from '../../../contract/schemas/patient-tokens.ts';
import { PatientSchema } from '../../../contract/schemas/patients.ts';
import { CoachSchema } from '../../../contract/schemas/coaches.ts';
import { isValidCode } from '../../../server/upstream/lib/codes.ts';
import { writeSetting } from '../../../server/upstream/features/settings/repository.ts';

let t: TestUpstream;
afterEach(() => t?.close());
const as = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('POST /coaches/connect', () => {
  test('a pseudonym code is no credential: a coach outside the care team gets 403 and no access, whether the code exists or not', async () => {
    t = await createTestUpstream();
    const coach = await t.login('coach@example.org');
    const health = await t.login('health@example.org');
    for (const token of [coach, health]) {
      const known = await request(t.app).post('/v2/coaches/connect').set(as(token)).send({ patientCode: 'CD-6789' });
      const unknown = await request(t.app).post('/v2/coaches/connect').set(as(token)).send({ patientCode: 'ZZ-9999' });
      expect(known.status).toBe(403);
      // The same answer for a code that exists and one that does not: the call tells nothing about codes.
      expect(unknown.status).toBe(403);
      expect(unknown.body).toEqual(known.body);
      expect((await request(t.app).get('/v2/patients/p2').set(as(token))).status).toBe(403);
      expect((await request(t.app).get('/v2/patients/p2/puks').set(as(token))).status).toBe(403);
      expect((await request(t.app).get('/v2/patients/p2/sync-db/day-evaluation').set(as(token))).status).toBe(403);
    }
    const links = await t.storage.db.selectFrom('patient_coaches').selectAll().execute();
    expect(links).toEqual([]);
  });

  test('the primary coach and administrators may connect; an administrator joins the care team', async () => {
    t = await createTestUpstream();
    const coach2 = await t.login('coach2@example.org');
    const admin = await t.login('admin@example.org');
    const own = await request(t.app).post('/v2/coaches/connect').set(as(coach2)).send({ patientCode: 'cd-6789' });
    expect(own.status).toBe(200);
    expect(v.parse(PatientSchema, own.body).id).toBe('p2');
    const res = await request(t.app).post('/v2/coaches/connect').set(as(admin)).send({ patientCode: 'CD-6789' });
    expect(res.status).toBe(200);
    expect((await request(t.app).get('/v2/patients/p2/coaches').set(as(admin))).body.map((c: { id: string }) => c.id)).toEqual(['admin']);
    // Connecting twice is not an error; an unknown code is a 404 for an administrator, who may see every patient anyway.
    expect((await request(t.app).post('/v2/coaches/connect').set(as(admin)).send({ patientCode: 'CD-6789' })).status).toBe(200);
    expect((await request(t.app).post('/v2/coaches/connect').set(as(admin)).send({ patientCode: 'ZZ-9999' })).status).toBe(404);
  });

  test('every attempt counts against the limit, successful ones included', async () => {
    t = await createTestUpstream({ rateLimits: { perAccount: 3 } });
    const admin = await t.login('admin@example.org');
    const coach = await t.login('coach@example.org');
    for (let i = 0; i < 3; i++) expect((await request(t.app).post('/v2/coaches/connect').set(as(admin)).send({ patientCode: 'CD-6789' })).status).toBe(200);
    const limited = await request(t.app).post('/v2/coaches/connect').set(as(admin)).send({ patientCode: 'CD-6789' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Per coach: another coach still has their own attempts.
    expect((await request(t.app).post('/v2/coaches/connect').set(as(coach)).send({ patientCode: 'AB-2345' })).status).toBe(200);
  });
});

test("GET /coaches/isCoachLocked answers the calling coach's lock state", async () => {
  t = await createTestUpstream();
  const coach = await t.login('coach@example.org');
  const res = await request(t.app).get('/v2/coaches/isCoachLocked').set(as(coach));
  expect(res.body).toEqual({ locked: false });
});

test('POST /coaches/createPatientForMedian makes the patient and a fresh access code for them', async () => {
  t = await createTestUpstream();
  const coach = await t.login('coach@example.org');
  const res = await request(t.app)
    .post('/v2/coaches/createPatientForMedian')
    .set(as(coach))
    .send({
      firstName: 'Ayşe',
      lastName: 'Öztürk',
      birthDate: '1975-03-14',
      clinic: 'MEDIAN Klinik Berggießhübel',
      aftercareStart: '2026-11-23',
      aftercareEnd: '2027-05-22',
    });
  expect(res.status).toBe(201);
  const { patient, token } = v.parse(PatientAccessSchema, res.body);
  expect(patient.primaryCoachId).toBe('coach');
  expect(token.patientId).toBe(patient.id);
  expect(token.usedAt).toBeNull();
  expect(isValidCode(token.code)).toBe(true);
  // 90 days from the test clock's now.
  expect(token.expiresAt).toBe('2027-02-20T09:00:00.000Z');
});

test('GET /coaches/create-trial-access makes a 14-day trial patient with a code that ends with it', async () => {
  t = await createTestUpstream();
  const coach = await t.login('coach@example.org');
  const res = await request(t.app).get('/v2/coaches/create-trial-access').set(as(coach));
  expect(res.status).toBe(201);
  const { patient, token } = v.parse(PatientAccessSchema, res.body);
  expect(patient).toMatchObject({ aftercareStart: '2026-11-22', aftercareEnd: '2026-12-06', primaryCoachId: 'coach' });
  expect(token.expiresAt.slice(0, 10)).toBe('2026-12-06');
  const stored = await request(t.app).get(`/v2/patientTokens/${token.id}`).set(as(coach));
  expect(stored.body.expiresAt).toBe(token.expiresAt);
});

describe('email verification', () => {
  test('the mailed link verifies the address once, without a session', async () => {
    t = await createTestUpstream();
    const admin = await t.login('admin@example.org');
    await request(t.app).post('/v2/coaches/coach2/send-verification-email').set(as(admin)).expect(204);
    const mail = t.outbox()[0].text;
    expect(mail).toContain('To: coach2@example.org');
    const link = /https?:\/\/[^/\s]+(\/v2\/coaches\/coach2\/verify-email\?token=\S+)/.exec(mail)![1];
    expect((await request(t.app).get(link)).status).toBe(204);
    const coach = await request(t.app).get('/v2/coaches/coach2').set(as(admin));
    expect(v.parse(CoachSchema, coach.body).emailVerified).toBe(true);
    expect((await request(t.app).get(link)).status).toBe(400);
  });

  test('a browser opening the link is sent to the login page', async () => {
    t = await createTestUpstream();
    const admin = await t.login('admin@example.org');
    await request(t.app).post('/v2/coaches/coach2/send-verification-email').set(as(admin)).expect(204);
    const link = /(\/v2\/coaches\/coach2\/verify-email\?token=\S+)/.exec(t.outbox()[0].text)![1];
    const res = await request(t.app).get(link).set('Accept', 'text/html');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/login');
  });

  test('a made-up token is a 400 and verifies nothing', async () => {
    t = await createTestUpstream();
    const res = await request(t.app).get('/v2/coaches/coach2/verify-email').query({ token: '"erfunden"' });
    expect(res.status).toBe(400);
    const row = await t.storage.db.selectFrom('coaches').select('emailVerified').where('id', '=', 'coach2').executeTakeFirstOrThrow();
    expect(row.emailVerified).toBe(0);
  });
});

test('POST /coaches/{id}/reset-password mails that coach a reset link', async () => {
  t = await createTestUpstream();
  const admin = await t.login('admin@example.org');
  await request(t.app).post('/v2/coaches/coach2/reset-password').set(as(admin)).expect(204);
  const mail = t.outbox()[0].text;
  expect(mail).toContain('To: coach2@example.org');
  const token = decodeURIComponent(/reset-password\?access_token=(\S+)/.exec(mail)![1]);
  await request(t.app).post('/v2/auth/me/set-password').set(as(token)).send({ password: 'Neu-Gesetzt-1' }).expect(204);
  await t.login('coach2@example.org', 'Neu-Gesetzt-1');
});

test('POST /coaches without a password makes an account that can only be entered through a reset link', async () => {
  t = await createTestUpstream();
  const admin = await t.login('admin@example.org');
  const res = await request(t.app)
    .post('/v2/coaches')
    .set(as(admin))
    .send({ email: 'neu@example.org', firstName: 'Neue', lastName: 'Kollegin', isHealthManager: true });
  expect(res.status).toBe(201);
  expect(v.parse(CoachSchema, res.body)).toMatchObject({ email: 'neu@example.org', isHealthManager: true, isAdmin: false, emailVerified: false });
  expect((await request(t.app).post('/v2/auth/login').send({ email: 'neu@example.org', password: '' })).status).toBe(422);
  expect((await request(t.app).post('/v2/auth/login').send({ email: 'neu@example.org', password: 'irgendwas' })).status).toBe(401);
});

test('an administrator cannot lock, demote or delete themselves', async () => {
  t = await createTestUpstream();
  const admin = await t.login('admin@example.org');
  expect((await request(t.app).patch('/v2/coaches/admin').set(as(admin)).send({ isUserLocked: true })).status).toBe(409);
  expect((await request(t.app).patch('/v2/coaches/admin').set(as(admin)).send({ isAdmin: false })).status).toBe(409);
  expect((await request(t.app).delete('/v2/coaches/admin').set(as(admin))).status).toBe(409);
});

test('GET /coaches/{id}/patients lists primary and linked patients with X-Total-Count', async () => {
  t = await createTestUpstream();
  await t.storage.db.insertInto('patient_coaches').values({ patientId: 'p3', coachId: 'coach', createdAt: '2026-11-22T09:00:00.000Z' }).execute();
  const coach = await t.login('coach@example.org');
  const res = await request(t.app).get('/v2/coaches/coach/patients').set(as(coach));
  expect(res.body.map((p: { id: string }) => p.id)).toEqual(['p3', 'p1']);
  expect(res.headers['x-total-count']).toBe('2');
});

test('POST /coaches/{id}/create-patient-token makes a readable, unused code valid for 90 days', async () => {
  t = await createTestUpstream();
  const coach = await t.login('coach@example.org');
  const res = await request(t.app).post('/v2/coaches/coach/create-patient-token').set(as(coach)).send({});
  expect(res.status).toBe(201);
  const token = v.parse(PatientTokenSchema, res.body);
  expect(token).toMatchObject({ coachId: 'coach', patientId: null, usedAt: null, expiresAt: '2027-02-20T09:00:00.000Z' });
  expect(token.code).toMatch(/^[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{2}$/);
});

test('POST /coaches/{id}/link-patient/{patientId} opens the patient to that coach', async () => {
  t = await createTestUpstream();
  const coach = await t.login('coach@example.org');
  const colleague = await t.login('coach2@example.org');
  expect((await request(t.app).get('/v2/patients/p1').set(as(colleague))).status).toBe(403);
  await request(t.app).post('/v2/coaches/coach2/link-patient/p1').set(as(coach)).expect(204);
  expect((await request(t.app).get('/v2/patients/p1').set(as(colleague))).status).toBe(200);
  expect((await request(t.app).post('/v2/coaches/nobody/link-patient/p1').set(as(coach))).status).toBe(404);
  expect((await request(t.app).post('/v2/coaches/coach2/link-patient/nope').set(as(coach))).status).toBe(404);
});

test('with enable_creating_new_patients off, only administrators create patients', async () => {
  t = await createTestUpstream();
  await writeSetting(t.storage.db, 'enable_creating_new_patients', false);
  const coach = await t.login('coach@example.org');
  const admin = await t.login('admin@example.org');
  const body = { firstName: 'Uwe', lastName: 'Koch', birthDate: '1958-09-30', aftercareStart: '2026-12-01', aftercareEnd: '2027-02-28' };
  const denied = await request(t.app).post('/v2/patients').set(as(coach)).send(body);
  expect(denied.status).toBe(403);
  expect((await request(t.app).post('/v2/coaches/createPatientForMedian').set(as(coach)).send(body)).body.error.code).toBe('PATIENT_CREATION_DISABLED');
  expect((await request(t.app).get('/v2/coaches/create-trial-access').set(as(coach))).status).toBe(403);
  expect((await request(t.app).post('/v2/patients').set(as(admin)).send(body)).status).toBe(201);
  const count = await t.storage.db
    .selectFrom('patients')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  expect(Number(count.n)).toBe(4);
});

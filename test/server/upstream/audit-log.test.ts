import { describe, expect } from 'vitest';
import request from 'supertest';
import * as v from 'valibot';
import { PASSWORD, type TestUpstream } from '../../helpers/upstream-app.ts';
import { AuditEntryListSchema, type AuditEntry } from '../../../contract/schemas/audit-log.ts';
import { signedIn, upstreamTest } from '../../helpers/upstream-test.ts';

const test = upstreamTest()
  .extend('admin', { auto: true }, ({ t }) => signedIn(t, 'admin'))
  .extend('coach', { auto: true }, ({ t }) => signedIn(t, 'coach'))
  /** The audit log as the administrator reads it. */
  .extend('log', ({ t, admin }) => async (where: Record<string, unknown> = {}): Promise<AuditEntry[]> => {
    const res = await request(t.app)
      .get('/v2/audit-log')
      .set(as(admin))
      .query({ filter: JSON.stringify({ where, limit: 1000 }) });
    expect(res.status).toBe(200);
    expect(Number(res.headers['x-total-count'])).toBe(res.body.length);
    return v.parse(AuditEntryListSchema, res.body);
  });

function as(token: string) {
  return { Authorization: `Bearer ${token}` };
}

test('without a patient to look at only administrators read the audit log', async ({ t, coach }) => {
  expect((await request(t.app).get('/v2/audit-log').set(as(coach))).status).toBe(403);
  expect(
    (
      await request(t.app)
        .get('/v2/audit-log')
        .set(as(await t.login('health@example.org')))
    ).status,
  ).toBe(403);
  expect((await request(t.app).get('/v2/audit-log')).status).toBe(401);
});

test("a patient's history: who changed which field when, from before to after, newest first", async ({ t, admin, coach, log }) => {
  t.clock.advance(60);
  await request(t.app).patch('/v2/patients/p1').set(as(coach)).send({ phone: '030 1' }).expect(200);
  t.clock.advance(60);
  await request(t.app).patch('/v2/patients/p1').set(as(admin)).send({ phone: '030 2', clinic: 'Damp' }).expect(200);
  await request(t.app).patch('/v2/patients/p2').set(as(admin)).send({ phone: 'other patient' }).expect(200);
  const entries = await log({ patientId: 'p1' });
  expect(entries.map((e) => [e.actorId, e.actorName, e.action, e.entity, e.entityId, e.changes])).toEqual([
    [
      'admin',
      'admin Test',
      'update',
      'patient',
      'p1',
      { phone: { before: '030 1', after: '030 2' }, clinic: { before: 'Reha-Zentrum Bad Kissingen', after: 'Damp' } },
    ],
    ['coach', 'coach Test', 'update', 'patient', 'p1', { phone: { before: null, after: '030 1' } }],
  ]);
  expect(entries[0].at > entries[1].at).toBe(true);
});

test('every version of a comment is recoverable, and a deleted comment stays readable with who deleted it', async ({ t, admin, coach, log }) => {
  const created = await request(t.app).post('/v2/comments').set(as(coach)).send({ patientId: 'p1', text: 'Erste Fassung' });
  const id = created.body.id;
  await request(t.app).patch(`/v2/comments/${id}`).set(as(coach)).send({ text: 'Zweite Fassung' }).expect(200);
  await request(t.app).put(`/v2/comments/${id}`).set(as(coach)).send({ text: 'Dritte Fassung' }).expect(200);
  await request(t.app).delete(`/v2/comments/${id}`).set(as(admin)).expect(204);
  const entries = (await log({ entity: 'comment', entityId: id })).reverse();
  expect(entries.map((e) => [e.action, e.actorId, e.patientId, e.changes.text])).toEqual([
    ['create', 'coach', 'p1', { before: null, after: 'Erste Fassung' }],
    ['update', 'coach', 'p1', { before: 'Erste Fassung', after: 'Zweite Fassung' }],
    ['update', 'coach', 'p1', { before: 'Zweite Fassung', after: 'Dritte Fassung' }],
    ['delete', 'admin', 'p1', { before: 'Dritte Fassung', after: null }],
  ]);
});

test("links, devices, access codes, recovery keys, the evaluation form and appointments are in the patient's history", async ({ t, coach, log }) => {
  await request(t.app).post('/v2/patients/p1/coaches/coach2').set(as(coach)).expect(204);
  await request(t.app).delete('/v2/patients/p1/coaches/coach2').set(as(coach)).expect(204);
  await request(t.app).post('/v2/patients/p1/devices/dev-1').set(as(coach)).expect(204);
  await request(t.app).delete('/v2/patients/p1/devices/dev-1').set(as(coach)).expect(204);
  const token = (await request(t.app).post('/v2/patientTokens').set(as(coach)).send({ patientId: 'p1' })).body;
  await request(t.app).patch(`/v2/patientTokens/${token.id}`).set(as(coach)).send({ expiresAt: '2026-12-01T00:00:00.000Z' }).expect(200);
  const puk = (await request(t.app).post('/v2/patients/p1/puks').set(as(coach)).send({})).body;
  await request(t.app)
    .put('/v2/patients/p1/evaluation-form')
    .set(as(coach))
    .send({ goalAttainment: 3, workAbility: 'limited', returnToWorkDate: null, followUpRecommended: false, summary: 'Teilweise' })
    .expect(200);
  await request(t.app)
    .put('/v2/patients/p1/appointments')
    .set(as(coach))
    .send([{ id: 'a1', startsAt: '2026-12-01T09:00:00.000Z', durationMinutes: 30, type: 'phone' }])
    .expect(200);
  await request(t.app).get('/v2/patients/p1/token/get-or-create-unused').set(as(coach)).expect(200);
  const entries = (await log({ patientId: 'p1' })).reverse();
  expect(entries.map((e) => `${e.action} ${e.entity} ${e.entityId}`)).toEqual([
    'create patient-coach p1/coach2',
    'delete patient-coach p1/coach2',
    'create patient-device p1/dev-1',
    'delete patient-device p1/dev-1',
    `create patient-token ${token.id}`,
    `update patient-token ${token.id}`,
    `create puk ${puk.id}`,
    'create evaluation-form p1',
    'update patient p1',
  ]);
  expect(entries[5].changes).toEqual({ expiresAt: { before: token.expiresAt, after: '2026-12-01T00:00:00.000Z' } });
  expect(entries[7].changes.summary).toEqual({ before: null, after: 'Teilweise' });
  expect(entries[8].changes.appointments).toEqual({
    before: [],
    after: [{ id: 'a1', startsAt: '2026-12-01T09:00:00.000Z', durationMinutes: 30, type: 'phone', note: '' }],
  });
  // Secrets are never in the log in clear.
  expect(entries[4].changes.code).toEqual({ before: null, after: '[redacted]' });
  expect(entries[6].changes.code).toEqual({ before: null, after: '[redacted]' });
});

test('coaches and devices: changes, password changes and new accounts without any secret in clear', async ({ t, admin, coach, log }) => {
  const created = (
    await request(t.app)
      .post('/v2/coaches')
      .set(as(admin))
      .send({ email: 'neu@example.org', firstName: 'Neu', lastName: 'Coach', password: 'Geheim-Passwort-9' })
  ).body;
  await request(t.app).patch(`/v2/coaches/${created.id}`).set(as(admin)).send({ isUserLocked: true }).expect(200);
  await request(t.app).patch('/v2/auth/me/update-password').set(as(coach)).send({ oldPassword: PASSWORD, newPassword: 'Neues-Passwort-2' }).expect(204);
  const device = (await request(t.app).post('/v2/devices').set(as(admin)).send({ name: 'Waage', type: 'scale', serialNumber: 'WB-1' })).body;
  await request(t.app).delete(`/v2/devices/${device.id}`).set(as(admin)).expect(204);
  const coachEntries = await log({ entity: 'coach' });
  expect(coachEntries.map((e) => `${e.action} ${e.entityId} ${Object.keys(e.changes).sort().join(',')}`)).toEqual([
    'update coach passwordHash',
    `update ${created.id} isUserLocked`,
    expect.stringMatching(new RegExp(`^create ${created.id} .*passwordHash`)),
  ]);
  expect(coachEntries[0].changes.passwordHash).toEqual({ before: '[redacted]', after: '[redacted]' });
  expect(coachEntries[1].changes.isUserLocked).toEqual({ before: 0, after: 1 });
  expect((await log({ entity: 'device' })).map((e) => e.action)).toEqual(['delete', 'create']);
  const everything = JSON.stringify(await log());
  for (const secret of ['scrypt$', 'Geheim-Passwort-9', 'Neues-Passwort-2', PASSWORD]) expect(everything).not.toContain(secret);
});

describe('the audit log list', () => {
  test('filters, orders and pages like every list, and refuses unknown fields', async ({ t, admin }) => {
    for (let i = 0; i < 3; i++)
      await request(t.app)
        .patch('/v2/patients/p1')
        .set(as(admin))
        .send({ phone: `${i}` })
        .expect(200);
    const page = await request(t.app)
      .get('/v2/audit-log')
      .set(as(admin))
      .query({ filter: JSON.stringify({ where: { patientId: 'p1' }, order: 'at ASC', limit: 2, skip: 1 }) });
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.body.map((e: AuditEntry) => e.changes.phone.after)).toEqual(['1', '2']);
    expect(
      (
        await request(t.app)
          .get('/v2/audit-log')
          .set(as(admin))
          .query({ filter: JSON.stringify({ where: { changes: 'x' } }) })
      ).status,
    ).toBe(400);
  });

  test('a change that fails writes no entry, and a PATCH that changes nothing writes none', async ({ t, admin, log }) => {
    await request(t.app).patch('/v2/patients/p1').set(as(admin)).send({ aftercareEnd: '2000-01-01' }).expect(422);
    await request(t.app).patch('/v2/patients/p1').set(as(admin)).send({ clinic: 'Reha-Zentrum Bad Kissingen' }).expect(200);
    expect(await log({ patientId: 'p1' })).toEqual([]);
  });
});

describe("a patient's coaches read that patient's history", () => {
  const history = (t: TestUpstream, token: string, where: Record<string, unknown>) =>
    request(t.app)
      .get('/v2/audit-log')
      .set(as(token))
      .query({ filter: JSON.stringify({ where, limit: 100 }) });

  test('its own patient: the same entries an administrator sees, and nothing of other patients', async ({ t, admin, coach, log }) => {
    await request(t.app).patch('/v2/patients/p1').set(as(coach)).send({ phone: '030 1' }).expect(200);
    await request(t.app).patch('/v2/patients/p2').set(as(admin)).send({ phone: '040 2' }).expect(200);
    await request(t.app).post('/v2/patientTokens').set(as(coach)).send({ patientId: 'p1' }).expect(201);
    const res = await history(t, coach, { patientId: 'p1' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(await log({ patientId: 'p1' }));
    expect(res.body.map((e: AuditEntry) => e.patientId)).toEqual(['p1', 'p1']);
    // The access code itself is never in the history.
    expect(res.body.find((e: AuditEntry) => e.entity === 'patient-token').changes.code).toEqual({ before: null, after: '[redacted]' });
    // Narrowing further works as for administrators (the versions of one note).
    expect((await history(t, coach, { patientId: 'p1', entity: 'patient' })).body).toHaveLength(1);
  });

  test("another coach's patient is 403, an unknown one 404, and a filter that does not name one patient 403", async ({ t, admin, coach }) => {
    expect((await history(t, coach, { patientId: 'p2' })).status).toBe(403);
    expect((await history(t, coach, { patientId: 'nope' })).status).toBe(404);
    expect((await history(t, coach, { or: [{ patientId: 'p1' }, { patientId: 'p2' }] })).status).toBe(403);
    expect((await history(t, coach, { patientId: { inq: ['p1', 'p2'] } })).status).toBe(403);
    expect((await history(t, coach, { entity: 'coach' })).status).toBe(403);
    // Linked through the care team: allowed.
    await request(t.app).post('/v2/patients/p2/coaches/coach').set(as(admin)).expect(204);
    expect((await history(t, coach, { patientId: 'p2' })).status).toBe(200);
  });

  test('the versions of a note stay readable to its coaches until it is deleted; then only administrators see them', async ({ t, coach, log }) => {
    await request(t.app).patch('/v2/comments/c1').set(as(coach)).send({ text: 'Zweite Fassung' }).expect(200);
    const versions = await history(t, coach, { patientId: 'p1', entity: 'comment', entityId: 'c1' });
    expect(versions.body.map((e: AuditEntry) => e.changes.text)).toEqual([{ before: 'Erstgespräch geführt.', after: 'Zweite Fassung' }]);
    await request(t.app).delete('/v2/comments/c1').set(as(coach)).expect(204);
    expect((await history(t, coach, { patientId: 'p1' })).body).toEqual([]);
    expect((await log({ patientId: 'p1', entity: 'comment' })).map((e) => e.action)).toEqual(['delete', 'update']);
  });
});

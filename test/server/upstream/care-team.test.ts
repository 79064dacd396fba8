import { describe, expect } from 'vitest';
import request from 'supertest';
import type { TestUpstream } from '../../helpers/upstream-app.ts';
import { signedIn, upstreamTest } from '../../helpers/upstream-test.ts';

/*
 * Who is responsible for a patient and who is in its care team is decided by the primary coach or an
 * administrator. `coach2` is primary coach of p2; `coach` is linked to p2 (care team) in every test here.
 */
// p2 (coach2's) has coach in its care team.
const test = upstreamTest()
  .extend('team', { auto: true }, async ({ t }) => {
    await t.storage.db.insertInto('patient_coaches').values({ patientId: 'p2', coachId: 'coach', createdAt: '2026-11-22T09:00:00.000Z' }).execute();
  })
  .extend('coach', { auto: true }, ({ t }) => signedIn(t, 'coach'))
  .extend('coach2', { auto: true }, ({ t }) => signedIn(t, 'coach2'))
  .extend('admin', { auto: true }, ({ t }) => signedIn(t, 'admin'));

const as = (token: string) => ({ Authorization: `Bearer ${token}` });
const primaryOf = async (t: TestUpstream, id: string) =>
  (await t.storage.db.selectFrom('patients').select('primaryCoachId').where('id', '=', id).executeTakeFirstOrThrow()).primaryCoachId;

describe('a coach who is only linked to the patient', () => {
  test('cannot make themselves primary coach, by PATCH or PUT, and the primary coach keeps the patient', async ({ t, coach, coach2 }) => {
    const patch = await request(t.app).patch('/v2/patients/p2').set(as(coach)).send({ primaryCoachId: 'coach' });
    expect(patch.status).toBe(403);
    expect(patch.body.error.code).toBe('PRIMARY_COACH_REQUIRED');
    const current = (await request(t.app).get('/v2/patients/p2').set(as(coach))).body;
    const { id: _id, patientCode: _c, appointments: _a, lastDataAt: _l, createdAt: _cr, updatedAt: _u, ...fields } = current;
    const put = await request(t.app)
      .put('/v2/patients/p2')
      .set(as(coach))
      .send({ ...fields, primaryCoachId: 'coach' });
    expect(put.status).toBe(403);
    const unassign = await request(t.app).patch('/v2/patients/p2').set(as(coach)).send({ primaryCoachId: null });
    expect(unassign.status).toBe(403);
    expect(await primaryOf(t, 'p2')).toBe('coach2');
    expect((await request(t.app).get('/v2/patients/p2').set(as(coach2))).status).toBe(200);
  });

  test('may still edit master data, and may send primaryCoachId unchanged', async ({ t, coach }) => {
    expect((await request(t.app).patch('/v2/patients/p2').set(as(coach)).send({ phone: '030 123' })).status).toBe(200);
    expect((await request(t.app).patch('/v2/patients/p2').set(as(coach)).send({ primaryCoachId: 'coach2', clinic: 'Damp' })).status).toBe(200);
  });

  test('cannot delete the patient', async ({ t, coach, coach2 }) => {
    const res = await request(t.app).delete('/v2/patients/p2').set(as(coach));
    expect(res.status).toBe(403);
    expect((await request(t.app).get('/v2/patients/p2').set(as(coach2))).status).toBe(200);
  });

  test('cannot bring others into the care team or remove them, but may leave it', async ({ t, coach }) => {
    expect((await request(t.app).post('/v2/patients/p2/coaches/health').set(as(coach))).status).toBe(403);
    expect((await request(t.app).post('/v2/coaches/health/link-patient/p2').set(as(coach))).status).toBe(403);
    await t.storage.db.insertInto('patient_coaches').values({ patientId: 'p2', coachId: 'admin', createdAt: '2026-11-22T09:00:00.000Z' }).execute();
    expect((await request(t.app).delete('/v2/patients/p2/coaches/admin').set(as(coach))).status).toBe(403);
    expect(
      (
        await request(t.app)
          .get('/v2/patients/p2')
          .set(as(await t.login('health@example.org')))
      ).status,
    ).toBe(403);
    expect((await request(t.app).delete('/v2/patients/p2/coaches/coach').set(as(coach))).status).toBe(204);
    expect((await request(t.app).get('/v2/patients/p2').set(as(coach))).status).toBe(403);
  });
});

describe('the primary coach and administrators', () => {
  test('the primary coach hands the patient over and links colleagues', async ({ t, coach2 }) => {
    expect((await request(t.app).post('/v2/patients/p2/coaches/health').set(as(coach2))).status).toBe(204);
    expect((await request(t.app).post('/v2/coaches/admin/link-patient/p2').set(as(coach2))).status).toBe(204);
    expect((await request(t.app).delete('/v2/patients/p2/coaches/coach').set(as(coach2))).status).toBe(204);
    const res = await request(t.app).patch('/v2/patients/p2').set(as(coach2)).send({ primaryCoachId: 'coach' });
    expect(res.status).toBe(200);
    expect(await primaryOf(t, 'p2')).toBe('coach');
  });

  test('an administrator reassigns and deletes; the primary coach deletes their own patient', async ({ t, coach2, admin }) => {
    expect((await request(t.app).patch('/v2/patients/p3').set(as(admin)).send({ primaryCoachId: 'coach' })).status).toBe(200);
    expect(await primaryOf(t, 'p3')).toBe('coach');
    expect((await request(t.app).delete('/v2/patients/p3').set(as(admin))).status).toBe(204);
    expect((await request(t.app).delete('/v2/patients/p2').set(as(coach2))).status).toBe(204);
  });
});

import { expect } from 'vitest';
import request from 'supertest';
import { storageBefore } from '../../helpers/upstream-migrations.ts';
import { migrate } from '../../../server/upstream/db/index.ts';
import { migrations } from '../../../server/upstream/db/migrations/index.ts';
import { upstreamTest } from '../../helpers/upstream-test.ts';

/*
 * An access code may carry a label saying whom the coach made it for. The built-in upstream stores it on both
 * databases (run with DATABASE_URL for PostgreSQL); codes made before the column existed have none.
 */

const test = upstreamTest();
const as = (token: string) => ({ Authorization: `Bearer ${token}` });

test('a code made with a label answers it, keeps it and lists it; a blank label is none', async ({ upstream }) => {
  const t = await upstream();
  const coach = await t.login('coach@example.org');
  const made = await request(t.app).post('/v2/coaches/coach/create-patient-token').set(as(coach)).send({ label: '  Herr B., Zimmer 12 ' });
  expect(made.status).toBe(201);
  expect(made.body.label).toBe('Herr B., Zimmer 12');
  const blank = await request(t.app).post('/v2/coaches/coach/create-patient-token').set(as(coach)).send({ label: '   ' });
  expect(blank.body.label).toBeNull();
  const plain = await request(t.app).post('/v2/coaches/coach/create-patient-token').set(as(coach)).send({});
  expect(plain.body.label).toBeNull();

  const listed = await request(t.app)
    .get('/v2/patientTokens')
    .query({ filter: JSON.stringify({ where: { coachId: 'coach', usedAt: null } }) })
    .set(as(coach));
  const labels = Object.fromEntries(listed.body.map((token: { id: string; label: string | null }) => [token.id, token.label]));
  expect(labels[made.body.id]).toBe('Herr B., Zimmer 12');
  expect(labels[plain.body.id]).toBeNull();
});

test('a label can be changed later, and one longer than 80 characters is refused with the field named', async ({ upstream }) => {
  const t = await upstream();
  const coach = await t.login('coach@example.org');
  const made = await request(t.app).post('/v2/patientTokens').set(as(coach)).send({ label: 'Frau A.' });
  expect(made.body.label).toBe('Frau A.');
  const renamed = await request(t.app).patch(`/v2/patientTokens/${made.body.id}`).set(as(coach)).send({ label: 'Frau A., Reha Nord' });
  expect(renamed.status).toBe(200);
  expect(renamed.body.label).toBe('Frau A., Reha Nord');
  const tooLong = await request(t.app)
    .post('/v2/coaches/coach/create-patient-token')
    .set(as(coach))
    .send({ label: 'x'.repeat(81) });
  expect(tooLong.status).toBe(422);
  expect(JSON.stringify(tooLong.body)).toContain('label');
});

test('the label migration keeps the codes made before it, without a label, and its down step removes the column', async () => {
  const { db, schema, close } = await storageBefore('112-patient-token-label');
  try {
    const at = '2026-11-22T09:00:00.000Z';
    await db.insertInto('coaches').values({ id: 'c1', email: 'c1@example.org', firstName: 'C', lastName: 'One', createdAt: at, updatedAt: at }).execute();
    await db
      .insertInto('patient_tokens')
      .values({ id: 'old', code: 'ABCDEFGHJ', coachId: 'c1', patientId: null, expiresAt: '2027-01-01T00:00:00.000Z', usedAt: null, createdAt: at })
      .execute();
    await migrate(db, schema);
    expect(await db.selectFrom('patient_tokens').select(['code', 'label']).where('id', '=', 'old').executeTakeFirstOrThrow()).toEqual({
      code: 'ABCDEFGHJ',
      label: null,
    });
    await migrations['112-patient-token-label'].down?.(db);
    await expect(db.selectFrom('patient_tokens').select('label').execute()).rejects.toThrow();
    expect(await db.selectFrom('patient_tokens').select('code').execute()).toEqual([{ code: 'ABCDEFGHJ' }]);
  } finally {
    await close();
  }
});

import { afterAll, beforeAll, expect, test } from 'vitest';
import request from 'supertest';
import { createTestUpstream, type TestUpstream } from '../../helpers/upstream-app.ts';

let t: TestUpstream;
let admin: string;
beforeAll(async () => {
  t = await createTestUpstream();
  admin = await t.login('admin@example.org');
});
afterAll(() => t.close());

test('30 rounds of two concurrent PATCHes of different fields of one patient lose nothing', async () => {
  let lost = 0;
  for (let round = 0; round < 30; round++) {
    const phone = `030 ${round}`;
    const clinic = `Klinik ${round}`;
    const [a, b] = await Promise.all([
      request(t.app).patch('/v2/patients/p1').set('Authorization', `Bearer ${admin}`).send({ phone }),
      request(t.app).patch('/v2/patients/p1').set('Authorization', `Bearer ${admin}`).send({ clinic }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const stored = await request(t.app).get('/v2/patients/p1').set('Authorization', `Bearer ${admin}`);
    if (stored.body.phone !== phone) lost++;
    if (stored.body.clinic !== clinic) lost++;
  }
  console.log(`lost updates: ${lost} of 60 changes`);
  expect(lost).toBe(0);
});

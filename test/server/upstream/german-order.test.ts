import { describe, expect } from 'vitest';
import request from 'supertest';
import { namesTest } from '../../helpers/upstream-names.ts';

/*
 * German phone-book order (DIN 5007 variant 1) of patients, coaches and Controlling's rows, through the stored
 * keys (german-keys.test.ts). The test:postgres run repeats every test here on PostgreSQL.
 */

const test = namesTest;

describe('names sort as in a German phone book', () => {
  test('patients by last name, then first name, umlauts and accents as their base letter, case ignored', async ({ t }) => {
    await t.addPatients();
    const sorted = await t.list({ where: { id: { nin: ['p1', 'p2', 'p3'] } }, order: ['lastName ASC', 'firstName ASC'] });
    expect(sorted).toEqual([
      'Abt, Zoë',
      'Ärmel, Émile',
      'Bauer, Matthias',
      'Bauer, Nicole',
      'Ober, Ülkü',
      'Øster, Łukasz',
      'Özdemir, Günther',
      'Schafer, Anton',
      'Schäfer, Jörg',
      'Schulze, Eva',
      'Straße, José',
      'Strasser, Ines',
      'ÜBEL, Ñaki',
      'van den Berg, Åsa',
      'Vanberg, Ole',
    ]);
    const reversed = await t.list({ where: { id: { nin: ['p1', 'p2', 'p3'] } }, order: ['lastName DESC', 'firstName DESC'] });
    expect(reversed).toEqual([...sorted].reverse());
  });

  test('the default order of the patient list is the same', async ({ t }) => {
    await t.addPatients();
    const res = await request(t.app)
      .get('/v2/patients')
      .set(t.asAdmin)
      .query({ filter: JSON.stringify({ where: { lastName: { inq: ['Schulze', 'Schäfer', 'Özdemir', 'Ober'] } } }) });
    expect(res.body.map((p: { lastName: string }) => p.lastName)).toEqual(['Ober', 'Özdemir', 'Schäfer', 'Schulze']);
  });

  test('coaches too', async ({ t }) => {
    for (const [firstName, lastName, email] of [
      ['Ute', 'Zander', 'z@x.org'],
      ['Jens', 'Äbel', 'a@x.org'],
      ['Ole', 'Abendroth', 'b@x.org'],
    ]) {
      await request(t.app).post('/v2/coaches').set(t.asAdmin).send({ firstName, lastName, email, password: 'Geheim-Passwort-9' }).expect(201);
    }
    const res = await request(t.app)
      .get('/v2/coaches')
      .set(t.asAdmin)
      .query({ filter: JSON.stringify({ where: { email: { like: '%@x.org' } }, order: ['lastName ASC'] }) });
    expect(res.body.map((c: { lastName: string }) => c.lastName)).toEqual(['Äbel', 'Abendroth', 'Zander']);
  });

  test("Controlling's rows too: Schäfer before Schulze, and Bauer, Matthias before Bauer, Nicole", async ({ t }) => {
    await t.addPatients();
    const res = await request(t.app)
      .get('/v2/statistics/patient-detail-statistics')
      .set(t.asAdmin)
      .query({ from: '"2026-09-01"', to: '"2026-11-22"', order: '"lastName ASC"', limit: '100' });
    expect(res.status).toBe(200);
    const names = (res.body as { firstName: string | null; lastName: string | null }[]).filter((r) => r.lastName).map((r) => `${r.lastName}, ${r.firstName}`);
    const at = (name: string) => names.indexOf(name);
    expect(at('Bauer, Matthias')).toBeLessThan(at('Bauer, Nicole'));
    expect(at('Schäfer, Jörg')).toBeLessThan(at('Schulze, Eva'));
    expect(at('Ärmel, Émile')).toBeLessThan(at('Bauer, Matthias'));
  });
});

import { expect, test } from 'vitest';
import request from 'supertest';
import { createTestUpstream, type TestUpstream } from './upstream-app.ts';
import { type Cleanup, signedIn } from './upstream-test.ts';

/*
 * German names on an upstream (test/server/upstream/german-*.test.ts): patients with umlauts, accents, ß and
 * particles, added through the API by the admin, and the patient list read back as "Last, First".
 */

export const NAMES: [string, string][] = [
  ['Eva', 'Schulze'],
  ['Jörg', 'Schäfer'],
  ['Anton', 'Schafer'],
  ['Günther', 'Özdemir'],
  ['Ülkü', 'Ober'],
  ['Zoë', 'Abt'],
  ['Émile', 'Ärmel'],
  ['José', 'Straße'],
  ['Ines', 'Strasser'],
  ['Nicole', 'Bauer'],
  ['Matthias', 'Bauer'],
  ['Åsa', 'van den Berg'],
  ['Ole', 'Vanberg'],
  ['Łukasz', 'Øster'],
  ['Ñaki', 'ÜBEL'],
];

export interface NamesUpstream extends TestUpstream {
  /** The signed-in admin's Authorization header. */
  asAdmin: { Authorization: string };
  /** Adds the patients (NAMES unless given), the i-th with the phone number phone(i) and the code code(i). */
  addPatients(names?: [string, string][], phone?: (i: number) => string | null, code?: (i: number) => string): Promise<void>;
  /** The patient list with a filter (limit 100 unless given), as "Last, First". */
  list(filter: Record<string, unknown>): Promise<string[]>;
  /** The patients whose field is like the pattern, in phone-book order. */
  search(field: string, pattern: string): Promise<string[]>;
}

/** A fresh upstream with the fixture (createTestUpstream) and the admin signed in. */
export async function upstreamWithNames(): Promise<NamesUpstream> {
  const t = await createTestUpstream();
  const asAdmin = { Authorization: `Bearer ${await signedIn(t, 'admin')}` };
  async function addPatients(names: [string, string][] = NAMES, phone?: (i: number) => string | null, code?: (i: number) => string) {
    let i = 0;
    for (const [firstName, lastName] of names) {
      const res = await request(t.app)
        .post('/v2/patients')
        .set(asAdmin)
        .send({
          firstName,
          lastName,
          birthDate: '1970-01-01',
          aftercareStart: '2026-09-01',
          aftercareEnd: '2027-02-28',
          phone: phone?.(i) ?? null,
          patientCode: code?.(i),
        });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      i++;
    }
  }
  async function list(filter: Record<string, unknown>): Promise<string[]> {
    const res = await request(t.app)
      .get('/v2/patients')
      .set(asAdmin)
      .query({ filter: JSON.stringify({ limit: 100, ...filter }) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body as { firstName: string; lastName: string }[]).map((p) => `${p.lastName}, ${p.firstName}`);
  }
  const search = (field: string, pattern: string) => list({ where: { [field]: { like: pattern } }, order: ['lastName ASC', 'firstName ASC'] });
  return { ...t, asAdmin, addPatients, list, search };
}

// biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixtures a fixture needs from its first parameter
const withNames = async ({}, { onCleanup }: Cleanup): Promise<NamesUpstream> => {
  const t = await upstreamWithNames();
  onCleanup(() => t.close());
  return t;
};

/** `t`: an upstream with the admin signed in and German names to add, for each test that asks for it. */
export const namesTest = test.extend('t', withNames);

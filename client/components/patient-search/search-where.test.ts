import { expect, test } from 'vitest';
import { patientSearchWhere } from './search-where.ts';

test('nothing to search for gives no condition', () => {
  expect(patientSearchWhere('')).toBeUndefined();
  expect(patientSearchWhere('  %_ ')).toBeUndefined();
});

test('one word matches first name, last name or code, in the spellings a case-sensitive API needs', () => {
  const spellings = ['%müller%', '%Müller%', '%MÜLLER%', '%mueller%', '%Mueller%', '%MUELLER%'];
  expect(patientSearchWhere('müller')).toEqual({
    or: ['firstName', 'lastName', 'patientCode'].flatMap((field) => spellings.map((like) => ({ [field]: { like } }))),
  });
});

test('"mueller" asks for Müller too, and a code without its hyphen for the code with it', () => {
  const likes = (text: string) => (patientSearchWhere(text) as { or: Record<string, { like: string }>[] }).or.map((c) => Object.entries(c)[0]);
  expect(likes('mueller')).toContainEqual(['lastName', { like: '%Müller%' }]);
  expect(likes('Weiss')).toContainEqual(['lastName', { like: '%Weiß%' }]);
  expect(likes('nk4821')).toContainEqual(['patientCode', { like: '%NK-4821%' }]);
  expect(likes('NK 4821')).toContainEqual(['patientCode', { like: '%NK-4821%' }]);
  expect(likes('NK 4821')).toContainEqual(['patientCode', { like: '%nk4821%' }]);
});

test('the number of conditions per word stays bounded', () => {
  const where = patientSearchWhere('Jürgen-Müller-Weißstraße') as { or: unknown[] };
  // 4 fields at most, MAX_VARIANTS spellings, each in three cases.
  expect(where.or.length).toBeLessThanOrEqual(3 * 4 * 3 + 3);
});

test('every word must match, and a word with a digit may also match the phone', () => {
  const where = patientSearchWhere('nk-48 030') as { and: { or: Record<string, { like: string }>[] }[] };
  expect(where.and).toHaveLength(2);
  expect(where.and[0].or).toContainEqual({ patientCode: { like: '%NK-48%' } });
  expect(where.and[0].or).toContainEqual({ phone: { like: '%nk-48%' } });
  expect(where.and[1].or).toContainEqual({ phone: { like: '%030%' } });
});

test('wildcards typed by a person are taken literally by dropping them', () => {
  expect(JSON.stringify(patientSearchWhere('a%b_c'))).toContain('%abc%');
});

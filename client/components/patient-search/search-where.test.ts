import { expect, test } from 'vitest';
import { patientSearchWhere } from './search-where.ts';

test('nothing to search for gives no condition', () => {
  expect(patientSearchWhere('')).toBeUndefined();
  expect(patientSearchWhere('  %_ ')).toBeUndefined();
});

test('one word matches first name, last name or code, in the spellings a case-sensitive API needs', () => {
  expect(patientSearchWhere('müller')).toEqual({
    or: ['firstName', 'lastName', 'patientCode'].flatMap((field) => ['%müller%', '%Müller%', '%MÜLLER%'].map((like) => ({ [field]: { like } }))),
  });
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

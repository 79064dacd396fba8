import { expect, test } from 'vitest';
import { ApiError } from '../data/http.ts';
import { containsPersonalData, passwordRefusal } from './password-rules.ts';

const anna = { email: 'anna.berg@example.org', firstName: 'Anna Lena', lastName: 'Berg-Maier' };

test.each([
  ['the email local part', 'xANNA.BERGx', true],
  ['a first name, whatever its case', 'lenaSonne!', true],
  ['one part of a double last name', 'maier2026!', true],
  ['the email domain only', 'example-org-1', false],
  ['nothing of the person', 'Weidenkätzchen', false],
])('a password with %s counts as personal data: %s', (_case, password, expected) => {
  expect(containsPersonalData(password, anna)).toBe(expected);
});

test('parts shorter than three characters are not looked for, and an unknown owner names nothing', () => {
  expect(containsPersonalData('aliblabla1', { firstName: 'Al', lastName: 'Li', email: 'al@x.org' })).toBe(false);
  expect(containsPersonalData('anything-at-all', {})).toBe(false);
});

test('only a 400 with one of the two codes is a refusal of the password', () => {
  expect(passwordRefusal(new ApiError(400, 'PASSWORD_TOO_COMMON', 'x'))).toBe('tooCommon');
  expect(passwordRefusal(new ApiError(400, 'PASSWORD_CONTAINS_PERSONAL_DATA', 'x'))).toBe('personalData');
  expect(passwordRefusal(new ApiError(400, 'WRONG_PASSWORD', 'x'))).toBeNull();
  expect(passwordRefusal(new ApiError(500, 'PASSWORD_TOO_COMMON', 'x'))).toBeNull();
  expect(passwordRefusal(new TypeError('Failed to fetch'))).toBeNull();
});

import { expect, test } from 'vitest';
import { coachListName, coachName, patientListName, patientName } from './names.ts';

const coach = (firstName: string, lastName: string) => ({ firstName, lastName, email: 'nora@example.org' });
const patient = (firstName: string, lastName: string, patientCode = 'LB-101') => ({ id: '7', firstName, lastName, patientCode });

test('a coach is named by first and last name, or by email when the upstream gave no names', () => {
  expect(coachName(coach('Nora', 'Neumann'))).toBe('Nora Neumann');
  expect(coachListName(coach('Nora', 'Neumann'))).toBe('Neumann, Nora');
  expect(coachName(coach('', ''))).toBe('nora@example.org');
  expect(coachListName(coach('', ''))).toBe('nora@example.org');
  expect(coachListName(coach('', 'Neumann'))).toBe('Neumann');
});

test('a patient without names is shown by code, and without a code by id', () => {
  expect(patientName(patient('Erika', 'Muster'))).toBe('Erika Muster');
  expect(patientListName(patient('', ''))).toBe('LB-101');
  expect(patientName(patient('', '', ''))).toBe('#7');
});

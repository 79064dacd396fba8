import { expect, test } from 'vitest';
import type { SystemSettings } from '../api/schemas/system.ts';
import { type Ability, can, dashboardKind, exportKinds, type Person } from './permissions.ts';

const person = (flags: Partial<Person> = {}): Person => ({ isAdmin: false, isSuperAdmin: false, isHealthManager: false, isUserLocked: false, ...flags });
const ROLES: Record<string, Person | null> = {
  'signed out': null,
  coach: person(),
  'locked coach': person({ isUserLocked: true }),
  'health manager': person({ isHealthManager: true }),
  administrator: person({ isAdmin: true }),
  'super administrator': person({ isSuperAdmin: true }),
  'administrator and health manager': person({ isAdmin: true, isHealthManager: true }),
};
const ABILITIES: Ability[] = ['manageCoaches', 'manageAllPatients', 'seeStatistics', 'createPatients', 'export'];
const creationOff = { enable_creating_new_patients: false } as SystemSettings;
const creationOn = { enable_creating_new_patients: true } as SystemSettings;

// Roles × abilities: each row is what the role may do; createPatients is given for creation switched on /
// switched off / settings not loaded; the last column is what the export offers.
// biome-ignore format: the table is aligned by hand, one role a row
const TABLE: Record<string, [boolean, boolean, boolean, [boolean, boolean, boolean], boolean, string[]]> = {
  //                                   coaches  patients  stats   create (on, off, null)   export  kinds
  'signed out':                       [false,   false,    false,  [false, false, false],   false,  []],
  coach:                              [false,   false,    false,  [true, false, true],     true,   ['patients', 'comments']],
  'locked coach':                     [false,   false,    false,  [true, false, true],     false,  []],
  'health manager':                   [false,   false,    true,   [true, false, true],     true,   ['patients', 'detailStatistics', 'comments', 'dailyFigures']],
  administrator:                      [true,    true,     true,   [true, true, true],      true,   ['patients', 'detailStatistics', 'comments', 'dailyFigures']],
  'super administrator':              [true,    true,     true,   [true, true, true],      true,   ['patients', 'detailStatistics', 'comments', 'dailyFigures']],
  'administrator and health manager': [true,    true,     true,   [true, true, true],      true,   ['patients', 'detailStatistics', 'comments', 'dailyFigures']],
};

test('the table of roles and abilities holds, cell by cell', () => {
  const actual: typeof TABLE = {};
  for (const [role, me] of Object.entries(ROLES)) {
    actual[role] = [
      can('manageCoaches', me, null),
      can('manageAllPatients', me, null),
      can('seeStatistics', me, null),
      [can('createPatients', me, creationOn), can('createPatients', me, creationOff), can('createPatients', me, null)],
      can('export', me, null),
      exportKinds(me),
    ];
  }
  expect(actual).toEqual(TABLE);
  // Every ability has its column (the last column is the export's kinds).
  expect(TABLE.coach.length - 1).toBe(ABILITIES.length);
});

test('only a health manager who is no administrator starts on the Controlling dashboard', () => {
  const kinds = Object.fromEntries(Object.entries(ROLES).map(([role, me]) => [role, dashboardKind(me)]));
  expect(kinds).toEqual({
    'signed out': 'coach',
    coach: 'coach',
    'locked coach': 'coach',
    'health manager': 'healthManager',
    administrator: 'coach',
    'super administrator': 'coach',
    'administrator and health manager': 'coach',
  });
});

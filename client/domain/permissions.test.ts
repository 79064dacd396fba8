import { expect, test } from 'vitest';
import type { SystemSettings } from '../../contract/schemas/system.ts';
import { type Ability, type Account, type AccountAction, can, dashboardKind, exportKinds, mayActOn, type Person } from './permissions.ts';

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

const ACTIONS: AccountAction[] = ['edit', 'lock', 'delete', 'resetPassword', 'endSessions', 'changeAdminRole'];
const ACTORS: Record<string, (Person & { id: string }) | null> = {
  'signed out': null,
  coach: { id: 'me', ...person() },
  'health manager': { id: 'me', ...person({ isHealthManager: true }) },
  administrator: { id: 'me', ...person({ isAdmin: true }) },
  'super administrator': { id: 'me', ...person({ isSuperAdmin: true }) },
};
const ACCOUNTS: Record<string, Account> = {
  'a plain coach': { id: 'other', isAdmin: false, isSuperAdmin: false },
  'an administrator': { id: 'other', isAdmin: true, isSuperAdmin: false },
  'a super administrator': { id: 'other', isAdmin: false, isSuperAdmin: true },
  themselves: { id: 'me', isAdmin: true, isSuperAdmin: true },
};
const none = [false, false, false, false, false, false];
const all = [true, true, true, true, true, true];
const onOneself = [true, false, false, true, true, false];

// Actor × account: what the coach's page offers, one column per action.
// biome-ignore format: the table is aligned by hand, one actor and account a row
const ACCOUNT_TABLE: Record<string, Record<string, boolean[]>> = {
  //                      edit, lock, delete, reset, end sessions, change admin role
  'signed out':          { 'a plain coach': none, 'an administrator': none, 'a super administrator': none, themselves: none },
  coach:                 { 'a plain coach': none, 'an administrator': none, 'a super administrator': none, themselves: none },
  'health manager':      { 'a plain coach': none, 'an administrator': none, 'a super administrator': none, themselves: none },
  administrator:         { 'a plain coach': all,  'an administrator': none, 'a super administrator': none, themselves: onOneself },
  'super administrator': { 'a plain coach': all,  'an administrator': all,  'a super administrator': all,  themselves: onOneself },
};

test('only a super administrator acts on administrators, and nobody locks, deletes or demotes themselves', () => {
  const actual: typeof ACCOUNT_TABLE = {};
  for (const [actor, me] of Object.entries(ACTORS)) {
    actual[actor] = Object.fromEntries(Object.entries(ACCOUNTS).map(([name, account]) => [name, ACTIONS.map((action) => mayActOn(action, account, me))]));
  }
  expect(actual).toEqual(ACCOUNT_TABLE);
});

import type { Me } from '../../contract/schemas/auth.ts';
import type { SystemSettings } from '../../contract/schemas/system.ts';
import { user } from '../state/session.ts';

/**
 * The one place that says who may do what in the client. Every screen, guard, sidebar item, guide chapter and the
 * export ask it; nothing else reads isAdmin, isSuperAdmin or isHealthManager to decide (role labels only display
 * them). The server decides again for every call: these rules only keep the interface from offering what would be
 * refused. docs: the table test in permissions.test.ts is the rule set at a glance.
 */
export type Person = Pick<Me, 'isAdmin' | 'isSuperAdmin' | 'isHealthManager' | 'isUserLocked'>;
export type Ability = 'manageCoaches' | 'manageAllPatients' | 'seeStatistics' | 'createPatients' | 'export';

const administers = (someone: Pick<Person, 'isAdmin' | 'isSuperAdmin'>) => someone.isAdmin || someone.isSuperAdmin;

const RULES: Record<Ability, (me: Person, settings: SystemSettings | null) => boolean> = {
  // "Coaches verwalten" and the admin screens: administrators, the super administrator included.
  manageCoaches: administers,
  // Connecting coaches to any patient, the deleted comments of any patient: administrators.
  manageAllPatients: administers,
  // Controlling (the statistics calls answer only these): health managers and administrators.
  seeStatistics: (me) => administers(me) || me.isHealthManager,
  // "New User" / creating patients: administrators always; everyone else unless the system setting
  // enable_creating_new_patients is false (while the settings have not loaded it stays offered).
  createPatients: (me, settings) => administers(me) || settings?.enable_creating_new_patients !== false,
  // Export: see exportKinds.
  export: (me) => exportKinds(me).length > 0,
};

/**
 * May this person (by default the signed-in one) do this? Nobody signed out may do anything. `settings` are the
 * system settings as loaded (state/settings.ts; null while not loaded): only createPatients reads them, and the
 * caller passes them, so this module stays out of the login screen's script (the settings state brings the API
 * layer with it).
 */
export function can(ability: Ability, me: Person | null | undefined = user.value, settings: SystemSettings | null = null): boolean {
  return !!me && RULES[ability](me, settings);
}

/** What an administrator may do to one coach account on its page. */
export type AccountAction = 'edit' | 'lock' | 'delete' | 'resetPassword' | 'endSessions' | 'changeAdminRole';
/** The account acted on: who it is and how far up it stands. */
export type Account = { id: string; isAdmin: boolean; isSuperAdmin: boolean };

/** Acting on oneself would leave the account unusable or nobody to manage it: never offered. */
const NOT_ON_ONESELF: readonly AccountAction[] = ['lock', 'delete', 'changeAdminRole'];

/**
 * May `me` do this to `account`? Administrators manage plain coaches; only a super administrator manages other
 * administrators and super administrators (the server answers 403 SUPER_ADMIN_REQUIRED otherwise), and nobody locks,
 * deletes or demotes themselves (the server keeps the last super administrator with 409 LAST_SUPER_ADMIN).
 */
export function mayActOn(action: AccountAction, account: Account, me: (Person & { id: string }) | null | undefined = user.value): boolean {
  if (!me || !administers(me)) return false;
  if (me.id === account.id) return !NOT_ON_ONESELF.includes(action);
  return me.isSuperAdmin || !administers(account);
}

export const EXPORT_KINDS = ['patients', 'detailStatistics', 'comments', 'dailyFigures'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];
/** Kinds made from the statistics calls, which the API answers to health managers and administrators only. */
const STATISTICS_KINDS: readonly ExportKind[] = ['detailStatistics', 'dailyFigures'];

/**
 * What a person may export (our decision where the product description leaves "who sees Export" open): every
 * signed-in coach exports the patients and comments they may open anyway (the list calls answer only those);
 * health managers and administrators also the statistics. Nobody signed out, and no locked account, exports.
 */
export function exportKinds(me: Person | null | undefined): ExportKind[] {
  if (!me || me.isUserLocked) return [];
  return EXPORT_KINDS.filter((kind) => RULES.seeStatistics(me, null) || !STATISTICS_KINDS.includes(kind));
}

/**
 * Which dashboard a person starts on (docs/product.md#dashboard): a health manager who is not an administrator gets
 * this month's Controlling figures, whether or not they also look after patients; everyone else the coach's caseload.
 */
export function dashboardKind(me: Person | null | undefined = user.value): 'healthManager' | 'coach' {
  return me?.isHealthManager && !administers(me) ? 'healthManager' : 'coach';
}

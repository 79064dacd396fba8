import type { Me } from '../api/schemas/auth.ts';
import { user } from '../state/session.ts';
import { systemSettings } from '../state/settings.ts';

/**
 * The create-patient entry (SPEC section 6): administrators always; everyone else only when the system
 * setting enable_creating_new_patients is true, and it stays allowed until the settings say otherwise.
 */
export function canCreatePatients(): boolean {
  const me = user.value;
  if (me?.isAdmin || me?.isSuperAdmin) return true;
  return systemSettings.value?.enable_creating_new_patients !== false;
}

export const EXPORT_KINDS = ['patients', 'detailStatistics', 'comments', 'dailyFigures'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];
/** Kinds made from the statistics calls, which the API answers to health managers and administrators only. */
const STATISTICS_KINDS: readonly ExportKind[] = ['detailStatistics', 'dailyFigures'];

/**
 * What a person may export: the one rule for "may export", used by the sidebar item, the /export screen and the
 * coach guide on the help page (SPEC leaves "which role sees the export item" open; this is our decision).
 * Every signed-in coach exports the patients and comments they may open anyway (the list calls answer only
 * those); health managers and administrators also the statistics. Nobody signed out exports anything.
 */
export function exportKinds(me: Pick<Me, 'isAdmin' | 'isSuperAdmin' | 'isHealthManager' | 'isUserLocked'> | null): ExportKind[] {
  if (!me || me.isUserLocked) return [];
  const statistics = me.isAdmin || me.isSuperAdmin || me.isHealthManager;
  return EXPORT_KINDS.filter((kind) => statistics || !STATISTICS_KINDS.includes(kind));
}

/** True when exportKinds() offers anything: the sidebar shows "Export", the screen its form, the guide its chapter. */
export function canExport(me: Parameters<typeof exportKinds>[0]): boolean {
  return exportKinds(me).length > 0;
}

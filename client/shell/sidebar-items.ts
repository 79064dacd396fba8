import type { Me } from '../api/schemas/auth.ts';
import type { SystemSettings } from '../api/schemas/system.ts';
import { canExport } from '../components/permissions.ts';

export interface SidebarVisibility {
  createAccess: boolean;
  admin: boolean;
  stats: boolean;
  export: boolean;
}

/**
 * Which sidebar items a person sees (SPEC section 6):
 * - "Coaches verwalten": administrators (isAdmin).
 * - "Controlling": health managers or administrators.
 * - "New User": administrators always; everyone else only when enable_creating_new_patients is true, and
 *   while the settings have not loaded (or failed to load) it stays shown.
 * - "Export" (SPEC leaves it open): everyone who may export, by the one rule canExport() in
 *   components/permissions.ts (every signed-in coach: their own patients and comments).
 * Dashboard, help and news are for everyone.
 */
export function sidebarVisibility(me: Me | null, settings: SystemSettings | null): SidebarVisibility {
  const isAdmin = !!me?.isAdmin;
  const isHealthManager = !!me?.isHealthManager;
  return {
    createAccess: isAdmin || settings === null || settings.enable_creating_new_patients,
    admin: isAdmin,
    stats: isAdmin || isHealthManager,
    export: canExport(me),
  };
}

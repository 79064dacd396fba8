import type { Me } from '../api/schemas/auth.ts';
import type { SystemSettings } from '../api/schemas/system.ts';

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
 * - "Export" (SPEC leaves it open; our decision): administrators and health managers, because an export
 *   takes data across all patients, which is the same audience as the cross-patient statistics.
 * Dashboard, help and news are for everyone.
 */
export function sidebarVisibility(me: Me | null, settings: SystemSettings | null): SidebarVisibility {
  const isAdmin = !!me?.isAdmin;
  const isHealthManager = !!me?.isHealthManager;
  return {
    createAccess: isAdmin || settings === null || settings.enable_creating_new_patients,
    admin: isAdmin,
    stats: isAdmin || isHealthManager,
    export: isAdmin || isHealthManager,
  };
}

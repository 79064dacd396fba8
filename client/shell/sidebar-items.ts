import type { Me } from '../../contract/schemas/auth.ts';
import type { SystemSettings } from '../../contract/schemas/system.ts';
import { can } from '../domain/permissions.ts';

export interface SidebarVisibility {
  createAccess: boolean;
  admin: boolean;
  stats: boolean;
  export: boolean;
}

/**
 * Which sidebar items a person sees (docs/product.md#roles), each by its rule in domain/permissions.ts:
 * "Coaches verwalten" (manageCoaches), "Controlling" (seeStatistics), "New User" (createPatients, still shown
 * while the settings have not loaded) and "Export" (export). Dashboard, help and news are for everyone.
 */
export function sidebarVisibility(me: Me | null, settings: SystemSettings | null): SidebarVisibility {
  return {
    createAccess: can('createPatients', me, settings),
    admin: can('manageCoaches', me, settings),
    stats: can('seeStatistics', me, settings),
    export: can('export', me, settings),
  };
}

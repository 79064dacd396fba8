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

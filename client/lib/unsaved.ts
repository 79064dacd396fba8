import { t } from './i18n.ts';

/*
 * Forms with unsaved changes on screen. Each form reports itself while it holds text the server has not confirmed;
 * leaving the screen (in-app navigation, back/forward, reload, closing the tab) asks first. The typed text is also
 * kept as a draft, so confirming loses nothing either: it is there again when the form is opened again.
 */
const unsaved = new Set<string>();

/** `id` holds unsaved changes (true) or no longer does (false, also when the form goes away). */
export function markUnsaved(id: string, dirty: boolean): void {
  if (dirty) unsaved.add(id);
  else unsaved.delete(id);
}

export function hasUnsavedChanges(): boolean {
  return unsaved.size > 0;
}

/** True when there is nothing unsaved on screen, or the person confirms leaving it. */
export function mayLeave(message = t('unsaved.confirmLeave')): boolean {
  return unsaved.size === 0 || globalThis.confirm(message);
}

/** Tests start with no form on screen. */
export function resetUnsavedForTests(): void {
  unsaved.clear();
}

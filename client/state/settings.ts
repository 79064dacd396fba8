import { signal } from '@preact/signals-react';
import { getSystemSettings } from '../api/system.ts';
import { isAbortError } from '../data/http.ts';
import type { SystemSettings } from '../../contract/schemas/system.ts';

/** GET /system/settings, or null before it has loaded (and after it failed). */
export const systemSettings = signal<SystemSettings | null>(null);
export const settingsStatus = signal<'idle' | 'loading' | 'loaded' | 'failed'>('idle');

/** Load the system settings; a failure is logged only (docs/product.md#errors). */
export async function loadSystemSettings(): Promise<void> {
  settingsStatus.value = 'loading';
  try {
    const { data } = await getSystemSettings();
    systemSettings.value = data;
    settingsStatus.value = 'loaded';
  } catch (error) {
    if (isAbortError(error)) {
      settingsStatus.value = 'idle'; // the session ended while loading: not a failure, loaded again next time
      return;
    }
    console.error('Could not load system settings', error);
    settingsStatus.value = 'failed';
  }
}

import { errorText, saveFailureText } from '../../components/errorText.ts';
import { t } from '../../lib/i18n.ts';

/** Field names the server named in a validation error (details[].path, first segment). */
export function invalidFields(error: unknown): Set<string> {
  const details = (error as { details?: { path?: string }[] })?.details;
  return new Set((details ?? []).map((d) => String(d.path ?? '').split('.')[0]).filter(Boolean));
}

/**
 * The server's word on an account boundary, said plainly: the account is an administrator's (403
 * SUPER_ADMIN_REQUIRED) or the last super administrator's (409 LAST_SUPER_ADMIN); null for any other failure.
 */
export function boundaryText(error: unknown): string | null {
  const code = (error as { code?: unknown })?.code;
  if (code === 'SUPER_ADMIN_REQUIRED') return t('accounts.superAdminRequired');
  if (code === 'LAST_SUPER_ADMIN') return t('accounts.lastSuperAdmin');
  return null;
}

/** The sentence shown above a form whose save failed. */
export function saveErrorText(error: unknown): string {
  const boundary = boundaryText(error);
  if (boundary) return `${t('admin.saveFailed')} ${boundary}`;
  const status = (error as { status?: number })?.status;
  if (status === 409) return t('admin.conflict');
  return saveFailureText(t('admin.saveFailed'), error);
}

/** The sentence for an action on a coach that failed (lock, delete, reset, ending sessions). */
export function actionErrorText(error: unknown, lead = t('admin.actionFailed')): string {
  const boundary = boundaryText(error);
  if (boundary) return `${lead} ${boundary}`;
  if ((error as { status?: number })?.status === 409) return t('admin.coach.selfLockout');
  return `${lead} ${errorText(error)}`;
}

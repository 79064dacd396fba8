import { errorText } from '../../components/errorText.ts';
import { t } from '../../lib/i18n.ts';

/** Field names the server named in a validation error (details[].path, first segment). */
export function invalidFields(error: unknown): Set<string> {
  const details = (error as { details?: { path?: string }[] })?.details;
  return new Set((details ?? []).map((d) => String(d.path ?? '').split('.')[0]).filter(Boolean));
}

/** The sentence shown above a form whose save failed. */
export function saveErrorText(error: unknown): string {
  const status = (error as { status?: number })?.status;
  if (status === 409) return t('admin.conflict');
  return `${t('admin.saveFailed')} ${errorText(error)}`;
}

import { t } from '../lib/i18n.ts';

/** A sentence a coach understands for any failed call; never the raw server text or JSON. */
export function errorText(error: unknown): string {
  const status = typeof error === 'object' && error !== null && 'status' in error ? Number((error as { status: unknown }).status) : NaN;
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : '';
  // A write the server accepted whose record could not be read back: stored, so never worded as "not saved".
  if (wasWritten(error)) return t('dataState.savedUnreadable');
  if (code === 'INVALID_RESPONSE') return t('dataState.invalidResponse');
  if (status === 0) return t('dataState.offline');
  if (status === 401) return t('dataState.unauthorized');
  if (status === 403) return t('dataState.forbidden');
  if (status === 404) return t('dataState.notFound');
  if (status === 409) return t('dataState.conflict');
  if (status === 412) return t('dataState.changedMeanwhile');
  if (status === 400 || status === 422) return t('dataState.invalid');
  if (status === 413) return t('dataState.tooLarge');
  if (status === 429) return t('dataState.rateLimited');
  if (status >= 500) return t('dataState.serverDown');
  return t('dataState.unknown');
}

/** True for a write the server stored (2xx) whose record could not be read back, even by reading it again. */
export function wasWritten(error: unknown): boolean {
  return (error as { code?: unknown; written?: unknown } | null)?.code === 'INVALID_RESPONSE' && (error as { written?: unknown }).written === true;
}

/**
 * "<lead> <why>" for a failed save ("Nicht gespeichert. …"). A write the server stored never reads as failed: then only
 * why it cannot be shown (dataState.savedUnreadable), without the lead.
 */
export function saveFailureText(lead: string, error: unknown, why: (error: unknown) => string = errorText): string {
  return wasWritten(error) ? errorText(error) : `${lead} ${why(error)}`;
}

/**
 * For a call that creates a patient or an access code: the server's rate limit (429 RATE_LIMITED, a coach creating
 * very many patients in a short time) said as what it is; any other failure as errorText says it.
 */
export function creationErrorText(error: unknown): string {
  const { status, code } = (error ?? {}) as { status?: unknown; code?: unknown };
  if (status === 429 && code === 'RATE_LIMITED') return t('accounts.tooManyPatients');
  return errorText(error);
}

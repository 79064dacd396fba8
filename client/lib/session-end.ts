import { t } from './i18n.ts';

/** Why the client ended a session: no input for the idle time, or the server said the session is over. */
export type EndReason = 'idle' | 'expired';

/** The idle time the gateway gives the page (`<meta name="session-idle-minutes">`); 30 when absent or not a whole number ≥ 1. */
export function idleMinutes(): number {
  const value = Number(document.querySelector('meta[name="session-idle-minutes"]')?.getAttribute('content'));
  return Number.isInteger(value) && value >= 1 ? value : 30;
}

/** The login screen's line for `?reason=`; null for anything else (a hand-made link shows nothing). */
export function endReasonText(reason: string | null): string | null {
  if (reason === 'expired') return t('dataState.unauthorized');
  if (reason !== 'idle') return null;
  const n = idleMinutes();
  return t(n === 1 ? 'idle.loggedOutOne' : 'idle.loggedOut', { n });
}

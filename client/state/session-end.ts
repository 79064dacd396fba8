import { navigate } from 'wouter/use-browser-location';
import * as auth from '../api/auth.ts';
import { abortSessionRequests, request } from '../data/http.ts';
import { MeSchema } from '../../contract/schemas/auth.ts';
import { TOKEN_KEY, clearToken, getToken } from '../lib/token.ts';
import { loginUrlFor } from '../lib/return-url.ts';
import { clearDrafts } from '../lib/drafts.ts';
import { rememberLanguage } from '../lib/i18n.ts';
import type { EndReason } from '../lib/session-end.ts';
import { dropSession, sessionChecked, token, user } from './session.ts';
import { AREA_PATHS, LOGIN_PATH, UNSUPPORTED_BROWSER_PATH } from '../../contract/pages.ts';

/*
 * How a session ends in this tab, and in every other tab of the browser. They share localStorage, so the stored
 * token is the signal: when another tab removes it (sign-out, a 401, idle, locked) this tab forgets the session too
 * and leaves its screen for /login, with the reason the ending tab left under END_KEY. The ending tab has already
 * told the server and kept or cleared the drafts; the followers only forget.
 */

/** Beside the token: why the session ended ('idle', 'expired', 'logout'), for the tabs that follow. */
export const END_KEY = 'sessionEnd';

const OPEN_PATHS = [LOGIN_PATH, AREA_PATHS['coach-reset-password'], AREA_PATHS['reset-password'], UNSUPPORTED_BROWSER_PATH];
export function isOpenPath(path: string): boolean {
  return OPEN_PATHS.some((p) => path === p || path.startsWith(`${p}/`) || (p === AREA_PATHS['reset-password'] && path.startsWith(p)));
}

/** To the login screen, which says why (`reason`, lib/session-end.ts) and returns here after the next sign-in. */
function toLogin(reason?: EndReason): void {
  if (isOpenPath(location.pathname)) return;
  const url = loginUrlFor(location.pathname + location.search);
  navigate(reason ? `${url}&reason=${reason}` : url, { replace: true });
}

/** Written before the token is removed, so the other tabs read it when they see the token go. */
function leaveReason(reason: EndReason | 'logout' | undefined): void {
  try {
    if (reason) localStorage.setItem(END_KEY, reason);
    else localStorage.removeItem(END_KEY);
  } catch {
    // Storage disabled: there are no other tabs to tell.
  }
}

/**
 * Logout (docs/product.md#states): POST /auth/logout; on success the browser's local storage is cleared and the
 * user goes to /login. The language choice is written back afterwards: it is a preference, not session data.
 * If the call fails the token is still forgotten locally, so a person who pressed "logout" is never left signed in.
 */
export async function logout(): Promise<void> {
  // Screens still loading would otherwise send the revoked token and get 401s: stop them first, and keep any new
  // call with this token from going out. Only the logout call itself is still sent.
  abortSessionRequests();
  // The other tabs sign out now (onStorage), not only when the server has answered.
  leaveReason('logout');
  try {
    await auth.logout();
    localStorage.clear();
    rememberLanguage();
  } catch {
    clearToken();
    clearDrafts();
  }
  token.value = null;
  user.value = null;
  navigate('/login');
}

/** Idle: the server is told (never waited for: the screen must go now), drafts stay, every tab follows. */
export function endIdleSession(): void {
  // Another tab has ended or replaced this session already: its storage event brings this tab along.
  if (getToken() !== token.value) return;
  auth.logout().catch(() => undefined);
  leaveReason('idle');
  dropSession(true);
  toLogin('idle');
}

const REASONS: Record<string, EndReason> = { SESSION_IDLE: 'idle', SESSION_EXPIRED: 'expired' };

/**
 * A 401 on any call except login: the token is no longer valid, so the session ends and the coach is asked to sign
 * in again. Only if that token is still the stored one: a late 401 for an old token must not wipe a newer one (a
 * fresh login, or the one-time token the reset screen took from its link), and a call sent without any token (the
 * session had already ended) ends nothing.
 */
export function handleUnauthorized(sentToken: string | null, code: string): void {
  if (sentToken === null || sentToken !== getToken()) return;
  const wasSignedIn = token.value !== null;
  const reason = REASONS[code];
  leaveReason(reason);
  dropSession(reason !== undefined);
  if (wasSignedIn) toLogin(reason);
}

function readEndReason(): string | null {
  try {
    return localStorage.getItem(END_KEY);
  } catch {
    return null;
  }
}

/** Another tab ended the session: forget it here without touching storage, and leave the screen. */
function followSignOut(): void {
  abortSessionRequests();
  const reason = readEndReason();
  token.value = null;
  user.value = null;
  // After "Abmelden" the next person starts at /login; a session that ran out returns to where the coach was.
  if (reason === 'logout') {
    if (!isOpenPath(location.pathname)) navigate('/login', { replace: true });
  } else toLogin(reason === 'idle' || reason === 'expired' ? reason : undefined);
}

/**
 * Another tab signed in (or the reset screen stored its link's token): this tab takes the new session once the
 * server says whose it is. A screen of the previous coach is left for the dashboard. If the token does not work
 * here, this tab is signed out, without ending anything the other tab still needs.
 */
async function adoptToken(stored: string): Promise<void> {
  const before = user.value?.id;
  try {
    const { data: me } = await request('GET', '/auth/me', { schema: MeSchema, skipUnauthorizedHandler: true });
    if (getToken() !== stored) return;
    token.value = stored;
    user.value = me.isUserLocked ? null : me;
    sessionChecked.value = true;
    if (before !== undefined && before !== me.id && !isOpenPath(location.pathname)) navigate('/dashboard', { replace: true });
  } catch {
    if (getToken() === stored && token.value !== null) followSignOut();
  }
}

function onStorage(event: StorageEvent): void {
  // "Abmelden" in another tab: first its reason, then (once the server has answered) the whole storage is cleared.
  if (event.key === END_KEY && event.newValue === 'logout' && token.value !== null) return followSignOut();
  if (event.key !== TOKEN_KEY && event.key !== null) return;
  const stored = getToken();
  if (stored === token.value) return;
  if (stored === null) followSignOut();
  else void adoptToken(stored);
}

/** Follow the other tabs' sign-ins and sign-outs; returns the function that stops it. */
export function followOtherTabs(): () => void {
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}

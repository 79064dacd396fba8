import { signal, computed } from '@preact/signals-react';
import type { Me } from '../../contract/schemas/auth.ts';
import { clearToken, getToken, setToken } from '../lib/token.ts';
import { t } from '../lib/i18n.ts';
import { clearDrafts } from '../lib/drafts.ts';
import { isLoadError, loadArea } from '../lib/areas.ts';

/** The signed-in coach, or null when logged out (or not checked yet). */
export const user = signal<Me | null>(null);
/** The stored access token (mirrors localStorage `accessToken`). */
export const token = signal<string | null>(getToken());
/** False until the start-up check has answered; guards wait for it instead of bouncing to /login. */
export const sessionChecked = signal(false);
/**
 * Why the last login() returned null: 'locked' (403, alert shown), 'offline' (no answer), 'unusable' (the login
 * or /auth/me answer lacks what the client needs: already reported to error reporting, and said so on the screen
 * instead of asking to check the password) or 'failed' (anything else).
 */
export const lastLoginFailure = signal<'locked' | 'offline' | 'unusable' | 'failed' | null>(null);

/** Authenticated per docs/product.md#roles: a token exists and the user is not locked. */
export const isAuthenticated = computed(() => !!token.value && !!user.value && !user.value.isUserLocked);

let api: Promise<typeof import('../app.ts')> | null = null;
/**
 * The API layer (and its schemas) comes with the app module, not with the first screen: /login renders
 * without it and fetches it while the coach types (routes.tsx) or when the form is sent. Loading it also
 * registers what a 401 means. A failed load is not kept: the next call tries again.
 */
export function loadApi() {
  api ??= loadArea('app', () => import('../app.ts')).then(
    (app) => {
      app.http.onUnauthorized(app.handleUnauthorized);
      http = app.http;
      return app;
    },
    (error: unknown) => {
      api = null;
      throw error;
    },
  );
  return api;
}

function storeToken(value: string): void {
  setToken(value);
  token.value = value;
}

let http: typeof import('../data/http.ts') | null = null;

/**
 * Forget the token locally (expired, locked or spent); the server side is not asked. Unsent drafts (free text
 * about patients) go with the session: the next person at this browser must not find them. An idle logout keeps
 * them (`keepDrafts`): they are sealed, and only this coach's next session gets the key to open them.
 */
export function dropSession(keepDrafts = false): void {
  http?.abortSessionRequests(); // its other calls would only come back 401
  clearToken();
  if (!keepDrafts) clearDrafts();
  token.value = null;
  user.value = null;
}

let started: Promise<Me | null> | null = null;

/**
 * Start-up check (docs/product.md#states), run once: no token -> logged out; with a token the current user is
 * fetched; a locked user is logged out and the token cleared; a failed fetch counts as an expired token.
 */
export function checkSession(): Promise<Me | null> {
  started ??= runCheck().finally(() => {
    sessionChecked.value = true;
  });
  return started;
}

async function runCheck(): Promise<Me | null> {
  const checked = getToken();
  token.value = checked;
  if (!checked) {
    user.value = null;
    return null;
  }
  // While the check runs, another token may be stored (the reset screen adopts its link's token, or someone
  // signs in). The answer is about the token that was checked; it must not touch the newer one.
  const replaced = () => getToken() !== checked;
  try {
    const { auth } = await loadApi();
    if (replaced()) return user.value; // never send the newer token to /auth/me in the old one's place
    const { data: me } = await auth.getMe();
    if (replaced()) return user.value;
    if (me.isUserLocked) {
      // Locked accounts are forced out: end the server session too, but never wait on it.
      auth.logout().catch(() => undefined);
      dropSession();
      return null;
    }
    user.value = me;
    return me;
  } catch {
    if (replaced()) return user.value;
    dropSession();
    return null;
  }
}

/** Test hook: forget that the start-up check ran. */
export function resetSessionForTests(): void {
  started = null;
  sessionChecked.value = false;
  lastLoginFailure.value = null;
  dropSession();
}

/** Login (docs/product.md#states/8): an answer with an id stores the token and returns the fetched user; else null. */
export async function login(email: string, password: string): Promise<Me | null> {
  lastLoginFailure.value = null;
  try {
    const { auth } = await loadApi();
    const { data } = await auth.login({ email, password });
    if (!data?.id) {
      lastLoginFailure.value = 'failed';
      return null;
    }
    storeToken(data.id);
    const { data: me } = await auth.getMe();
    // Drafts another coach left behind (a session that ended without this browser noticing) are not this coach's.
    clearDrafts(me.id);
    user.value = me;
    sessionChecked.value = true;
    return me;
  } catch (error) {
    const status = (error as { name?: string; status?: number }).name === 'ApiError' ? (error as { status: number }).status : null;
    if (status === 403) {
      lastLoginFailure.value = 'locked';
      // The dialog (and its styles) come with the app module, which the login call has just used.
      const app = await loadApi();
      await app.showAlert({ type: 'error', title: t('session.lockedTitle'), text: t('session.lockedText') });
    } else {
      // No answer at all (the API layer could not be loaded, or the request never came back): say so.
      const unusable = (error as { code?: string }).code === 'INVALID_RESPONSE';
      lastLoginFailure.value = status === 0 || isLoadError(error) ? 'offline' : unusable ? 'unusable' : 'failed';
    }
    if (token.value) dropSession();
    return null;
  }
}

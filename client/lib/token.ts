/**
 * The access token in localStorage (docs/product.md sections 6 and 9). Kept apart from the fetch wrapper so the
 * first screen can know whether someone is signed in without loading the API layer and its schemas.
 */
export const TOKEN_KEY = 'accessToken';
/**
 * Beside the token, for the other tabs of this browser: when the coach last used any tab (state/idle.ts), and why
 * the session ended (state/session-end.ts). Both belong to one token: a new one starts without them.
 */
export const ACTIVITY_KEY = 'lastActivity';
export const END_KEY = 'sessionEnd';

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null; // storage disabled: nobody is signed in
  }
}
export function setToken(token: string): void {
  localStorage.removeItem(ACTIVITY_KEY);
  localStorage.removeItem(END_KEY);
  localStorage.setItem(TOKEN_KEY, token);
}
export function clearToken(): void {
  try {
    localStorage.removeItem(TOKEN_KEY);
  } catch {
    // storage disabled: nothing was stored
  }
}

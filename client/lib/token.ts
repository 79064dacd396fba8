/**
 * The access token in localStorage (docs/product.md sections 6 and 9). Kept apart from the fetch wrapper so the
 * first screen can know whether someone is signed in without loading the API layer and its schemas.
 */
export const TOKEN_KEY = 'accessToken';

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null; // storage disabled: nobody is signed in
  }
}
export function setToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
}
export function clearToken(): void {
  try {
    localStorage.removeItem(TOKEN_KEY);
  } catch {
    // storage disabled: nothing was stored
  }
}

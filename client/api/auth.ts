import { request } from '../data/http.ts';
import { LoginResponseSchema, MeSchema, type LoginBody } from '../../contract/schemas/auth.ts';

export const login = (body: LoginBody) => request('POST', '/auth/login', { body, schema: LoginResponseSchema, skipUnauthorizedHandler: true });
/** Sent even after the session's other calls were stopped (abortSessionRequests): it is what ends the session. */
export const logout = () => request('POST', '/auth/logout', { endsSession: true });
export const getMe = (signal?: AbortSignal) => request('GET', '/auth/me', { schema: MeSchema, signal });
export const updatePassword = (body: { oldPassword: string; newPassword: string }) => request('PATCH', '/auth/me/update-password', { body });
/** Authenticated with the token from the emailed link, which the caller has stored as the current token. */
export const setPassword = (body: { password: string }) => request('POST', '/auth/me/set-password', { body, skipUnauthorizedHandler: true });
/** The answer is ignored (docs/product.md#calls): it never reveals whether the account exists. */
export const forgotPassword = (body: { email: string }) => request('POST', '/auth/forgot-password', { body });
/** Ends every login of the signed-in coach except this one (a lost phone, a shared computer left signed in). */
export const endOtherSessions = () => request('POST', '/auth/me/end-other-sessions');

/**
 * The app module: what every screen after the login screen runs on, loaded as one chunk with everything
 * two or more areas share (scripts/build-graph.ts). The first screen reaches the API layer only through
 * here (state/session.ts), the route table the signed-in layout and the admin guard (routes.tsx).
 */
export * as auth from './api/auth.ts';
export * as http from './data/http.ts';
export { SignedInLayout } from './shell/SignedInLayout.tsx';
export { RequireAdmin } from './shell/RequireAdmin.tsx';
export { default as NotFound } from './features/not-found/index.tsx';
export { showAlert } from './components/Dialog.tsx';
export { handleUnauthorized } from './state/session-end.ts';
import { installLeaveGuard } from './shell/leave-guard.ts';
import { followOtherTabs } from './state/session-end.ts';
import { watchIdle } from './state/idle.ts';
import { mountIdleWarning } from './shell/IdleWarning.tsx';

// Leaving a screen with unsaved changes asks first, from the first screen that can hold any.
installLeaveGuard();
// Every signed-in tab loads this module (the start-up check or the login does): from then on it follows the other
// tabs' sign-outs and counts the coach's idle time.
followOtherTabs();
watchIdle();
mountIdleWarning();

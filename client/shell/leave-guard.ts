import type { AroundNavHandler } from 'wouter';
import { hasUnsavedChanges, mayLeave } from '../lib/unsaved.ts';
import { setNavigationGuard } from '../lib/navigation-guard.ts';

/*
 * Leaving a screen with unsaved changes asks first (lib/unsaved.ts). Three ways out are covered:
 *   - in-app navigation: every Link, redirect and navigate() of the router goes through guardedNavigation;
 *   - back and forward: a popstate is undone (the URL put back) when the person stays;
 *   - reload, closing the tab, typing another address: the browser's own beforeunload question.
 * The session's own redirects (logout, an expired token) use wouter's plain navigate and are never held up.
 */

const here = () => location.pathname + location.search + location.hash;

/** The router's aroundNav: a navigation to another address goes ahead only when nothing unsaved is left behind. */
export const guardedNavigation: AroundNavHandler = (navigate, to, options) => {
  if (to !== here() && to !== location.pathname + location.search && !mayLeave()) return;
  navigate(to, options);
};

let installed = false;
let current = '';

/**
 * Installs the guard once: the router's navigations, and the back/forward and unload questions. The popstate
 * listener captures, so it runs before the router's own (registered earlier, by the login screen) and can stop it.
 */
export function installLeaveGuard(): void {
  if (installed) return;
  installed = true;
  setNavigationGuard(guardedNavigation);
  current = here();
  const remember = () => {
    current = here();
  };
  addEventListener('pushState', remember);
  addEventListener('replaceState', remember);
  addEventListener(
    'popstate',
    (event) => {
      if (here() === current || mayLeave()) {
        remember();
        return;
      }
      // Staying: the router never hears of this step, and the address shows the screen still on it.
      event.stopImmediatePropagation();
      history.pushState(history.state, '', current);
    },
    { capture: true },
  );
  addEventListener('beforeunload', (event) => {
    if (!hasUnsavedChanges()) return;
    event.preventDefault();
    // Older browsers show the question only when returnValue is set.
    event.returnValue = '';
  });
}

import type { AroundNavHandler } from 'wouter';

/*
 * The router's aroundNav, kept tiny for the first screen: the leave guard itself (shell/leave-guard.ts) comes with
 * the app module and plugs in here when it loads. Until then (the login screen) every navigation goes ahead.
 */
let guard: AroundNavHandler | null = null;

export const aroundNav: AroundNavHandler = (navigate, to, options) => (guard ? guard(navigate, to, options) : navigate(to, options));

export function setNavigationGuard(next: AroundNavHandler | null): void {
  guard = next;
}

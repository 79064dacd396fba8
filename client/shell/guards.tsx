import type { ReactNode } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { isAuthenticated, sessionChecked, user } from '../state/session.ts';
import type { Me } from '../api/schemas/auth.ts';
import { loginUrlFor } from '../lib/return-url.ts';
import { t } from '../lib/i18n.ts';
import { Loading } from '../components/Loading.tsx';

/** Login guard: waits for the start-up check, then sends a logged-out person to /login?returnUrl=<url>. */
export function RequireLogin({ children }: { children?: ReactNode }) {
  const [path] = useLocation();
  const search = useSearch();
  if (!sessionChecked.value) return <Loading />;
  if (!isAuthenticated.value) {
    return <Redirect to={loginUrlFor(search ? `${path}?${search}` : path)} replace />;
  }
  return <>{children}</>;
}

/** Admin guard (SPEC section 6): isAdmin or isSuperAdmin; denied when no user is loaded. */
export function isAdminUser(me: Me | null): boolean {
  return !!me && (me.isAdmin || me.isSuperAdmin);
}

export function RequireAdmin({ children }: { children?: ReactNode }) {
  if (!isAdminUser(user.value)) {
    return (
      <section className="page-error" role="alert">
        <h1>{t('guard.forbiddenTitle')}</h1>
        <p>{t('guard.forbiddenText')}</p>
      </section>
    );
  }
  return <>{children}</>;
}

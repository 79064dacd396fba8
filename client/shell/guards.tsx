import type { ReactNode } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { isAuthenticated, sessionChecked } from '../state/session.ts';
import { can } from '../components/permissions.ts';
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

/** Admin guard (docs/product.md#roles): whoever may manage coaches (components/permissions.ts); denied when no user is loaded. */
export function RequireAdmin({ children }: { children?: ReactNode }) {
  if (!can('manageCoaches')) {
    return (
      <section className="page-error" role="alert">
        <h1>{t('guard.forbiddenTitle')}</h1>
        <p>{t('guard.forbiddenText')}</p>
      </section>
    );
  }
  return <>{children}</>;
}

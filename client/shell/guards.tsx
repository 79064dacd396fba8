import type { ReactNode } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { isAuthenticated, sessionChecked } from '../state/session.ts';
import { loginUrlFor } from '../lib/return-url.ts';
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

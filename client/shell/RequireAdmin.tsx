import type { ReactNode } from 'react';
import { can } from '../domain/permissions.ts';
import { t } from '../lib/i18n.ts';

// Its own file, apart from the login guard: only the shell's routes need it, so the permission rules stay out of
// the login screen's script.
/** Admin guard (docs/product.md#roles): whoever may manage coaches (domain/permissions.ts); denied when no user is loaded. */
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

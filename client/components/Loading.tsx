import { t } from '../lib/i18n.ts';

/** Shown while a page chunk or the session check is on its way. */
export function Loading() {
  return (
    <p className="loading" aria-busy="true">
      {t('common.loading')}
    </p>
  );
}

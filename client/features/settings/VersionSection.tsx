import { getAppVersion } from '../../api/app-settings.ts';
import { DataState } from '../../components/DataState.tsx';
import { useResource } from '../../components/useResource.ts';
import { t } from '../../lib/i18n.ts';

/** The running product version, to quote when asking support. */
export function VersionSection() {
  const version = useResource((signal) => getAppVersion(signal), 'version');
  return (
    <section aria-labelledby="settings-version-heading">
      <h2 id="settings-version-heading">{t('settings.versionHeading')}</h2>
      <DataState status={version.status} error={version.error} onRetry={version.reload}>
        <p>{t('settings.version', { version: version.data?.version ?? '' })}</p>
      </DataState>
    </section>
  );
}

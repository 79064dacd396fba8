import { getAppVersion } from '../../api/app-settings.ts';
import { DataState } from '../../components/DataState.tsx';
import { useResource } from '../../components/useResource.ts';
import { t } from '../../lib/i18n.ts';

export function VersionSection() {
  const version = useResource((signal) => getAppVersion(signal), 'version');
  return (
    <section aria-labelledby="information-version-heading">
      <h2 id="information-version-heading">{t('information.versionHeading')}</h2>
      <DataState status={version.status} error={version.error} onRetry={version.reload}>
        <p>{t('information.version', { version: version.data?.version ?? '' })}</p>
      </DataState>
    </section>
  );
}

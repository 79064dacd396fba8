import { getAppVersion } from '../api/app-settings.ts';
import { t } from '../lib/i18n.ts';
import { DataState } from './DataState.tsx';
import { useQuery } from '../data/useQuery.ts';

/** The running product version, to quote when asking support: on the help page and in the settings, each with its texts. */
export function VersionSection({ texts }: { texts: 'information' | 'settings' }) {
  const version = useQuery((signal) => getAppVersion(signal), 'version');
  return (
    <section aria-labelledby={`${texts}-version-heading`}>
      <h2 id={`${texts}-version-heading`}>{t(`${texts}.versionHeading`)}</h2>
      <DataState status={version.status} error={version.error} onRetry={version.reload}>
        <p>{t(`${texts}.version`, { version: version.data?.version ?? '' })}</p>
      </DataState>
    </section>
  );
}

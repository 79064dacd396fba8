import { getAppSettings } from '../../api/app-settings.ts';
import { DataState } from '../../components/DataState.tsx';
import { useQuery } from '../../data/useQuery.ts';
import { t } from '../../lib/i18n.ts';
import { can } from '../../domain/permissions.ts';
import { user } from '../../state/session.ts';

/** Questions coaches ask most; the texts live in the locale files. */
const TOPICS = ['newPatient', 'dataLight', 'comments', 'export', 'password', 'privacy'] as const;

/** Short answers to frequent questions, plus the support contact from the app settings. */
export function HelpSection() {
  const settings = useQuery((signal) => getAppSettings(signal), 'app-settings');
  const data = settings.data;
  return (
    <section aria-labelledby="information-help-heading">
      <h2 id="information-help-heading">{t('information.helpHeading')}</h2>
      {/* The export answer only for those who may export (the rule of the sidebar and the export screen). */}
      {TOPICS.filter((topic) => topic !== 'export' || can('export', user.value)).map((topic) => (
        <details key={topic}>
          <summary>{t(`faq.${topic}.question`)}</summary>
          <p>{t(`faq.${topic}.answer`)}</p>
        </details>
      ))}
      <h3>{t('information.supportHeading')}</h3>
      <DataState status={settings.status} error={settings.error} onRetry={settings.reload}>
        {data && (
          <ul className="information-support">
            {data.supportEmail && (
              <li>
                {t('information.supportEmail')} <a href={`mailto:${data.supportEmail}`}>{data.supportEmail}</a>
              </li>
            )}
            {data.supportPhone && (
              <li>
                {t('information.supportPhone')} <a href={`tel:${data.supportPhone.replace(/[^\d+]/g, '')}`}>{data.supportPhone}</a>
              </li>
            )}
            {/^https?:\/\//.test(data.privacyUrl) && (
              <li>
                <a href={data.privacyUrl} target="_blank" rel="noopener noreferrer">
                  {t('information.privacy')}
                </a>
              </li>
            )}
          </ul>
        )}
      </DataState>
    </section>
  );
}

import { getPatientStatistics } from '../../api/statistics.ts';
import { DataState } from '../../components/DataState.tsx';
import { useResource } from '../../components/useResource.ts';
import { formatNumber, t } from '../../lib/i18n.ts';
import type { Period } from './period.ts';

const FIGURES = ['total', 'active', 'planned', 'completed', 'startedInPeriod', 'endedInPeriod', 'activeWithoutDataFor7Days'] as const;

/** Patient counts by aftercare status on the last day of the period, and the flows within it. */
export function SummaryCards({ period }: { period: Period }) {
  const stats = useResource((signal) => getPatientStatistics(period, signal), `${period.from}|${period.to}|${period.coachId ?? ''}`);
  return (
    <section aria-labelledby="stats-summary-heading">
      <h2 id="stats-summary-heading">{t('stats.summaryHeading')}</h2>
      <DataState status={stats.status} error={stats.error} onRetry={stats.reload} hasData={!!stats.data}>
        {stats.data && (
          <dl className="stats-cards">
            {FIGURES.map((key) => (
              <div
                key={key}
                className={key === 'activeWithoutDataFor7Days' && stats.data!.activeWithoutDataFor7Days > 0 ? 'stats-card stats-card-warning' : 'stats-card'}
              >
                <dt>{t(`stats.figure.${key}`)}</dt>
                <dd>{formatNumber(stats.data![key])}</dd>
              </div>
            ))}
          </dl>
        )}
      </DataState>
    </section>
  );
}

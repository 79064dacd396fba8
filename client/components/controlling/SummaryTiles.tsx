import type { ReactNode } from 'react';
import { getPatientStatistics } from '../../api/statistics.ts';
import { t } from '../../lib/i18n.ts';
import { Figure, isGiven } from '../Figure.tsx';
import { formatDay, formatPeriod, type Period } from '../../lib/period.ts';
import { previousPeriod, type ComparisonBasis } from '../../lib/period-ranges.ts';
import { DataState } from '../DataState.tsx';
import { useQuery } from '../../data/useQuery.ts';
import { comparisonText, direction } from './comparison.ts';
import './summary-tiles.css';

/**
 * What each figure of GET /statistics/patient-statistics counts (contract/schemas/statistics.ts): every patient
 * there is today, whatever the period (no comparison: it has none); the status on the period's last day; or what
 * happened within the period.
 */
const FIGURES = [
  ['total', 'today'],
  ['active', 'lastDay'],
  ['planned', 'lastDay'],
  ['completed', 'lastDay'],
  ['startedInPeriod', 'period'],
  ['endedInPeriod', 'period'],
  ['activeWithoutDataFor7Days', 'lastDay'],
] as const;
type FigureKey = (typeof FIGURES)[number][0];
type Scope = (typeof FIGURES)[number][1];

interface Props {
  period: Period;
  /** Today, `YYYY-MM-DD`: a status counted on it is "Stand heute". */
  today: string;
  /** The comparison's basis when the period is a chosen calendar range; otherwise it follows from the dates. */
  basis?: ComparisonBasis;
  /** The heading's id (the dashboard and Controlling each have their own). */
  headingId: string;
  heading: string;
  /** Shown between the heading and the tiles (the dashboard's way into Controlling). */
  children?: ReactNode;
}

const periodKey = (p: Period) => `${p.from}|${p.to}|${p.coachId ?? ''}`;

function scopeText(scope: Scope, period: Period, today: string): string {
  if (scope === 'period') return formatPeriod(period);
  return scope === 'today' || period.to === today ? t('stats.scope.today') : t('stats.scope.on', { date: formatDay(period.to) });
}

/** Patient figures of a period, each saying which days it counts, with the change against the previous period. */
export function SummaryTiles({ period, today, basis, headingId, heading, children }: Props) {
  const previous = previousPeriod(period, basis);
  const stats = useQuery((signal) => getPatientStatistics(period, signal), periodKey(period));
  const before = useQuery((signal) => getPatientStatistics(previous.period, signal), periodKey(previous.period));
  // Both before the tiles show, so the comparison lines never push the page down after the figures.
  const failed = stats.status === 'error' ? stats : before.status === 'error' ? before : null;
  const status = failed ? 'error' : stats.status === 'loading' || before.status === 'loading' ? 'loading' : 'ready';
  const retry = () => {
    if (stats.status === 'error') stats.reload();
    if (before.status === 'error') before.reload();
  };
  const against = t(`stats.compare.against.${previous.basis}`);
  return (
    <section aria-labelledby={headingId} className="summary-tiles">
      <h2 id={headingId}>{heading}</h2>
      <p className="summary-tiles-period">
        <span className="nowrap">{formatPeriod(period)}</span> · {against} (<span className="nowrap">{formatPeriod(previous.period)}</span>)
      </p>
      {children}
      <DataState status={status} error={failed?.error} onRetry={retry} hasData={!!stats.data && !!before.data}>
        {stats.data && before.data && (
          <dl className="stats-cards">
            {FIGURES.map(([key, scope]) => (
              <Tile
                key={key}
                figure={key}
                scope={scopeText(scope, period, today)}
                current={stats.data![key]}
                previous={scope === 'today' ? null : before.data![key]}
                basis={previous.basis}
              />
            ))}
          </dl>
        )}
      </DataState>
    </section>
  );
}

interface TileProps {
  figure: FigureKey;
  scope: string;
  current: number;
  /** The previous period's value; null for a figure that does not depend on the period. */
  previous: number | null;
  basis: ComparisonBasis;
}

function Tile({ figure, scope, current, previous, basis }: TileProps) {
  const warn = figure === 'activeWithoutDataFor7Days' && current > 0;
  // No comparison with a figure the API does not give (either period's).
  const compared = previous !== null && isGiven(current) && isGiven(previous);
  return (
    <div className={warn ? 'stats-card stats-card-warning' : 'stats-card'}>
      <dt>{t(`stats.figure.${figure}`)}</dt>
      <dd className="stats-card-value">
        <Figure value={current} />
      </dd>
      <dd className="stats-card-scope">{scope}</dd>
      {compared && <dd className={`stats-card-change stats-change-${direction(current, previous!)}`}>{comparisonText(current, previous!, basis)}</dd>}
    </div>
  );
}

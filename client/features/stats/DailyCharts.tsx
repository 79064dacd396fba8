import type { ReactNode } from 'react';
import { getDailyPatientsInAftercare, getPhoneCoachings } from '../../api/statistics.ts';
import { BarChart, LineChart } from '../../components/charts/index.ts';
import { DataState } from '../../components/DataState.tsx';
import { useResource } from '../../components/useResource.ts';
import { downloadCsv } from '../../lib/csv.ts';
import { formatNumber, t } from '../../lib/i18n.ts';
import { formatDay, formatPeriod, type Period } from '../../lib/period.ts';
import { dailyPatientsCsv, phoneCoachingsCsv, type ChartCsv } from './chart-csv.ts';

const wholeNumber = (value: number) => formatNumber(value, { maximumFractionDigits: 0 });

/** A chart's section: its heading with the button that saves the chart's numbers as CSV once they are there. */
function ChartSection({ id, heading, csv, children }: { id: string; heading: string; csv: (() => ChartCsv) | null; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-heading`}>
      <div className="stats-chart-head">
        <h2 id={`${id}-heading`}>{heading}</h2>
        {csv && (
          <button
            type="button"
            className="secondary outline stats-csv"
            aria-describedby={`${id}-heading`}
            onClick={() => {
              const file = csv();
              downloadCsv(file.fileName, file.text);
            }}
          >
            {t('stats.csvDownload')}
          </button>
        )}
      </div>
      {children}
    </section>
  );
}

export function DailyCharts({ period }: { period: Period }) {
  const key = `${period.from}|${period.to}|${period.coachId ?? ''}`;
  const daily = useResource((signal) => getDailyPatientsInAftercare(period, signal), key);
  const calls = useResource((signal) => getPhoneCoachings(period, signal), key);
  const description = formatPeriod(period);
  const callTotals = (calls.data ?? []).reduce((sum, day) => ({ count: sum.count + day.count, minutes: sum.minutes + day.minutes }), { count: 0, minutes: 0 });

  return (
    <div className="stats-charts">
      <ChartSection id="stats-daily" heading={t('stats.dailyHeading')} csv={daily.data?.length ? () => dailyPatientsCsv(period, daily.data!) : null}>
        <DataState status={daily.status} error={daily.error} onRetry={daily.reload} hasData={!!daily.data}>
          <LineChart
            title={t('stats.dailyChartTitle')}
            description={description}
            labels={(daily.data ?? []).map((d) => formatDay(d.date))}
            series={(daily.data ?? []).length ? [{ name: t('stats.dailySeries'), values: (daily.data ?? []).map((d) => d.count) }] : []}
            xLabel={t('stats.day')}
            yLabel={t('stats.patients')}
            formatValue={wholeNumber}
            integerValues
          />
        </DataState>
      </ChartSection>
      <ChartSection id="stats-calls" heading={t('stats.callsHeading')} csv={calls.data?.length ? () => phoneCoachingsCsv(period, calls.data!) : null}>
        <DataState status={calls.status} error={calls.error} onRetry={calls.reload} hasData={!!calls.data}>
          <p className="stats-note">{t('stats.callsTotal', { count: formatNumber(callTotals.count), minutes: formatNumber(callTotals.minutes) })}</p>
          <BarChart
            title={t('stats.callsChartTitle')}
            description={description}
            labels={(calls.data ?? []).map((d) => formatDay(d.date))}
            series={(calls.data ?? []).length ? [{ name: t('stats.callsSeries'), values: (calls.data ?? []).map((d) => d.count) }] : []}
            xLabel={t('stats.day')}
            yLabel={t('stats.calls')}
            formatValue={wholeNumber}
            integerValues
          />
        </DataState>
      </ChartSection>
    </div>
  );
}

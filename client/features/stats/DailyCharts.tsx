import { getDailyPatientsInAftercare, getPhoneCoachings } from '../../api/statistics.ts';
import { BarChart, LineChart } from '../../components/charts/index.ts';
import { DataState } from '../../components/DataState.tsx';
import { useQuery } from '../../data/useQuery.ts';
import { downloadCsv } from '../../lib/csv.ts';
import { formatNumber, t } from '../../lib/i18n.ts';
import { formatDay, formatPeriod, type Period } from '../../lib/period.ts';
import { dailyPatientsCsv, phoneCoachingsCsv, type ChartCsv } from './chart-csv.ts';

const wholeNumber = (value: number) => formatNumber(value, { maximumFractionDigits: 0 });

/** Saves a chart's numbers as CSV; described by the section's heading, as every chart has one such button. */
function CsvButton({ headingId, csv }: { headingId: string; csv: () => ChartCsv }) {
  const save = () => {
    const file = csv();
    downloadCsv(file.fileName, file.text);
  };
  return (
    <button type="button" className="secondary outline chart-toggle" aria-describedby={headingId} onClick={save}>
      {t('stats.csvDownload')}
    </button>
  );
}

export function DailyCharts({ period }: { period: Period }) {
  const key = `${period.from}|${period.to}|${period.coachId ?? ''}`;
  const daily = useQuery((signal) => getDailyPatientsInAftercare(period, signal), key);
  const calls = useQuery((signal) => getPhoneCoachings(period, signal), key);
  const description = formatPeriod(period);
  const callTotals = (calls.data ?? []).reduce((sum, day) => ({ count: sum.count + day.count, minutes: sum.minutes + day.minutes }), { count: 0, minutes: 0 });

  return (
    <div className="stats-charts">
      <section aria-labelledby="stats-daily-heading">
        <h2 id="stats-daily-heading">{t('stats.dailyHeading')}</h2>
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
            actions={<CsvButton headingId="stats-daily-heading" csv={() => dailyPatientsCsv(period, daily.data ?? [])} />}
          />
        </DataState>
      </section>
      <section aria-labelledby="stats-calls-heading">
        <h2 id="stats-calls-heading">{t('stats.callsHeading')}</h2>
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
            actions={<CsvButton headingId="stats-calls-heading" csv={() => phoneCoachingsCsv(period, calls.data ?? [])} />}
          />
        </DataState>
      </section>
    </div>
  );
}

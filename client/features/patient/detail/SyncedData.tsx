import { useState } from 'react';
import { listSyncRecords } from '../../../api/sync-db.ts';
import type { SyncRecord } from '../../../../contract/schemas/sync-db.ts';
import { isoDay } from '../../../components/AftercareBadge.tsx';
import { BarChart, LineChart } from '../../../components/charts/index.ts';
import { DataState, listState } from '../../../components/DataState.tsx';
import { useQuery } from '../../../data/useQuery.ts';
import { formatDate, formatNumber, t } from '../../../lib/i18n.ts';

import { Events, SurveyResults } from './SyncedEvents.tsx';
import { readAll } from '../../../data/fetch-all.ts';
const PERIODS = [14, 30, 90] as const;

/** Every day from `from` to `to` inclusive, as YYYY-MM-DD. */
export function daysBetween(from: Date, to: Date): string[] {
  const days: string[] = [];
  const d = new Date(from.getFullYear(), from.getMonth(), from.getDate());
  const end = new Date(to.getFullYear(), to.getMonth(), to.getDate());
  while (d <= end) {
    days.push(isoDay(d));
    d.setDate(d.getDate() + 1);
  }
  return days;
}

/** One value per day (null where the day has no record), for the charts. */
export function perDay<T>(days: string[], records: { date: string | null; data: T }[], value: (data: T) => number | null): (number | null)[] {
  const byDay = new Map<string, T>();
  for (const r of records) if (r.date) byDay.set(r.date.slice(0, 10), r.data);
  return days.map((day) => {
    const data = byDay.get(day);
    if (data === undefined) return null;
    const v = value(data);
    return v === null || !Number.isFinite(v) ? null : v;
  });
}

const shortDay = (day: string) => {
  const [y, m, d] = day.split('-').map(Number);
  return formatDate(new Date(y, m - 1, d), { day: '2-digit', month: '2-digit' });
};

/** What the patient's app synchronised: day evaluations and day stats as charts (with tables), events, survey results. */
export function SyncedData({ patientId }: { patientId: string }) {
  const [period, setPeriod] = useState<number>(30);
  const to = new Date();
  const from = new Date(to.getFullYear(), to.getMonth(), to.getDate() - (period - 1));
  const days = daysBetween(from, to);
  const where = { date: { gte: days[0] } };
  const key = `${patientId}:${days[0]}`;
  const evaluations = useQuery((s) => readAll((range) => listSyncRecords(patientId, 'day-evaluation', { where, order: 'date ASC', ...range }, s), s), key);
  const stats = useQuery((s) => readAll((range) => listSyncRecords(patientId, 'day-stats', { where, order: 'date ASC', ...range }, s), s), key);
  const labels = days.map(shortDay);
  const range = t('patient.data.range', { from: formatDate(from), to: formatDate(to) });

  return (
    <div className="synced-data">
      <div className="card-head">
        <h2>{t('patient.data.title')}</h2>
        <label className="inline-label">
          {t('patient.data.period')}
          <select value={String(period)} onChange={(e) => setPeriod(Number((e.target as HTMLSelectElement).value))}>
            {PERIODS.map((p) => (
              <option key={p} value={p}>
                {t('patient.data.lastDays', { n: p })}
              </option>
            ))}
          </select>
        </label>
      </div>
      <section className="card" aria-labelledby="eval-heading">
        <h3 id="eval-heading">{t('patient.data.evaluations')}</h3>
        <DataState {...listState(evaluations, t('patient.data.noEvaluations'))}>
          {evaluations.data && <EvaluationCharts records={evaluations.data} days={days} labels={labels} range={range} />}
        </DataState>
      </section>
      <section className="card" aria-labelledby="stats-heading">
        <h3 id="stats-heading">{t('patient.data.stats')}</h3>
        <DataState {...listState(stats, t('patient.data.noStats'))}>
          {stats.data && <StatsCharts records={stats.data} days={days} labels={labels} range={range} />}
        </DataState>
      </section>
      <div className="panel-grid">
        <Events patientId={patientId} />
        <SurveyResults patientId={patientId} />
      </div>
    </div>
  );
}

type Evaluation = SyncRecord<'day-evaluation'>;

function mean(values: (number | null)[]): number | null {
  const nums = values.filter((v): v is number => v !== null);
  return nums.length ? nums.reduce((a, b) => a + b, 0) / nums.length : null;
}

/** Averages over the chosen period and over the last 7 days: the trend a coach asks about on the phone. */
function Averages({ records, days }: { records: Evaluation[]; days: string[] }) {
  const last7 = days.slice(-7);
  const items = [
    { key: 'mood', get: (d: Evaluation['data']) => d.mood },
    { key: 'sleep', get: (d: Evaluation['data']) => d.sleep },
    { key: 'stress', get: (d: Evaluation['data']) => d.stress },
  ] as const;
  const show = (v: number | null) => (v === null ? t('patient.none') : formatNumber(v, { maximumFractionDigits: 1 }));
  return (
    <dl className="averages">
      {items.map(({ key, get }) => (
        <div key={key}>
          <dt>
            {t(`patient.data.${key}`)} <small>{t('patient.data.avgPeriod')}</small>
          </dt>
          <dd>
            {show(mean(perDay(days, records, get)))}
            <small className="muted"> · {t('patient.data.avg7', { value: show(mean(perDay(last7, records, get))) })}</small>
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Notes({ records }: { records: Evaluation[] }) {
  const withNotes = records
    .filter((r) => r.data.notes?.trim())
    .slice(-10)
    .reverse();
  if (withNotes.length === 0) return null;
  return (
    <details>
      <summary>{t('patient.data.notes', { n: withNotes.length })}</summary>
      <ul className="plain-list">
        {withNotes.map((r) => (
          <li key={r.id}>
            <strong>{r.date ? shortDay(r.date) : ''}</strong> {r.data.notes}
          </li>
        ))}
      </ul>
    </details>
  );
}

interface ChartsProps<K extends 'day-evaluation' | 'day-stats'> {
  records: SyncRecord<K>[];
  days: string[];
  labels: string[];
  /** The period, said under every chart. */
  range: string;
}

/** Wellbeing and pain per day, the period's averages and the patient's notes. */
function EvaluationCharts({ records, days, labels, range }: ChartsProps<'day-evaluation'>) {
  return (
    <>
      <Averages records={records} days={days} />
      <LineChart
        title={t('patient.data.wellbeingChart')}
        description={range}
        labels={labels}
        xLabel={t('patient.data.day')}
        yLabel={t('patient.data.scale15')}
        series={[
          { name: t('patient.data.mood'), values: perDay(days, records, (d) => d.mood) },
          { name: t('patient.data.sleep'), values: perDay(days, records, (d) => d.sleep) },
          { name: t('patient.data.stress'), values: perDay(days, records, (d) => d.stress) },
        ]}
      />
      {records.some((r) => r.data.pain !== null && r.data.pain !== undefined) ? (
        <LineChart
          title={t('patient.data.painChart')}
          description={range}
          labels={labels}
          xLabel={t('patient.data.day')}
          yLabel={t('patient.data.scale010')}
          series={[{ name: t('patient.data.pain'), values: perDay(days, records, (d) => d.pain ?? null) }]}
        />
      ) : (
        <p className="muted">{t('patient.data.noPain')}</p>
      )}
      <Notes records={records} />
    </>
  );
}

/** Steps, active minutes and (where the app sends it) sleep per day. */
function StatsCharts({ records, days, labels, range }: ChartsProps<'day-stats'>) {
  return (
    <>
      <BarChart
        title={t('patient.data.stepsChart')}
        description={range}
        labels={labels}
        xLabel={t('patient.data.day')}
        yLabel={t('patient.data.steps')}
        series={[{ name: t('patient.data.steps'), values: perDay(days, records, (d) => d.steps) }]}
      />
      <LineChart
        title={t('patient.data.activityChart')}
        description={range}
        labels={labels}
        xLabel={t('patient.data.day')}
        yLabel={t('patient.data.minutes')}
        series={[{ name: t('patient.data.activeMinutes'), values: perDay(days, records, (d) => d.activeMinutes) }]}
      />
      {records.some((r) => r.data.sleepMinutes !== null && r.data.sleepMinutes !== undefined) && (
        <LineChart
          title={t('patient.data.sleepChart')}
          description={range}
          labels={labels}
          xLabel={t('patient.data.day')}
          yLabel={t('patient.data.hours')}
          formatValue={(v) => formatNumber(v, { maximumFractionDigits: 1 })}
          series={[
            { name: t('patient.data.sleepHours'), values: perDay(days, records, (d) => (d.sleepMinutes == null ? null : Math.round(d.sleepMinutes / 6) / 10)) },
          ]}
        />
      )}
    </>
  );
}

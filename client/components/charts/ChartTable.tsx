import { t } from '../../lib/i18n.ts';
import type { ChartSeries } from './types.ts';

interface Props {
  caption: string;
  xLabel: string;
  labels: readonly string[];
  series: readonly ChartSeries[];
  format: (value: number) => string;
}

/** The chart's data as a plain table: the text alternative for screen readers and for reading exact values. */
export function ChartTable({ caption, xLabel, labels, series, format }: Props) {
  return (
    <div className="table-scroll">
      <table className="chart-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{xLabel}</th>
            {series.map((s) => (
              <th scope="col" key={s.name}>
                {s.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {labels.map((label, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: one row per day of the period; the position is the identity
            <tr key={`${label}-${i}`}>
              <th scope="row">{label}</th>
              {series.map((s) => {
                const value = s.values[i];
                return (
                  <td key={s.name} data-numeric="">
                    {value === null || value === undefined || !Number.isFinite(value) ? t('charts.noValue') : format(value)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

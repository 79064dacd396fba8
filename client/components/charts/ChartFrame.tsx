import { useId, useState, type ReactNode } from 'react';
import { formatNumber, t } from '../../lib/i18n.ts';
import { ChartTable } from './ChartTable.tsx';
import { colourOf } from './scale.ts';
import type { ChartProps } from './types.ts';
import { useContainerWidth } from './useContainerWidth.ts';
import './charts.css';

export interface DrawArgs {
  width: number;
  height: number;
  format: (value: number) => string;
  titleId: string;
  descId: string;
}

/**
 * What line and bar charts share: caption, legend, the switch between chart and table, the empty state,
 * and an SVG with <title>/<desc> sized to its container.
 */
export function ChartFrame(props: ChartProps & { draw: (args: DrawArgs) => ReactNode }) {
  const { title, description, labels, series, xLabel, initialView = 'chart', height = 280 } = props;
  const format = props.formatValue ?? ((value: number) => formatNumber(value));
  const [view, setView] = useState(initialView);
  const [ref, width] = useContainerWidth<HTMLDivElement>();
  const id = useId();
  const captionId = `${id}-caption`;
  const empty = labels.length === 0 || series.length === 0;

  return (
    <figure class="chart" aria-labelledby={captionId}>
      <div class="chart-head">
        <figcaption id={captionId}>{title}</figcaption>
        {!empty && (
          <button
            type="button"
            class="secondary outline chart-toggle"
            aria-pressed={view === 'table'}
            onClick={() => setView(view === 'table' ? 'chart' : 'table')}
          >
            {view === 'table' ? t('charts.showChart') : t('charts.showTable')}
          </button>
        )}
      </div>
      {empty ? (
        <p class="chart-empty">{t('charts.empty')}</p>
      ) : view === 'table' ? (
        <ChartTable caption={title} xLabel={xLabel} labels={labels} series={series} format={format} />
      ) : (
        <>
          {series.length > 1 && (
            <ul class="chart-legend">
              {series.map((s, i) => (
                <li key={s.name}>
                  <svg width="12" height="12" aria-hidden="true" focusable="false">
                    <rect width="12" height="12" rx="2" fill={colourOf(i)} />
                  </svg>
                  {s.name}
                </li>
              ))}
            </ul>
          )}
          <div ref={ref} class="chart-canvas">
            {props.draw({ width, height, format, titleId: `${id}-title`, descId: `${id}-desc` })}
          </div>
          {description && <p class="chart-description">{description}</p>}
        </>
      )}
    </figure>
  );
}

import { useId, useState, type ReactNode } from 'react';
import { formatNumber, t } from '../../lib/i18n.ts';
import { ChartTable } from './ChartTable.tsx';
import { Axes, MARGIN } from './Axes.tsx';
import { colourOf, linearScale, maxValue, niceTicks } from './scale.ts';
import type { ChartProps } from './types.ts';
import { useContainerWidth } from './useContainerWidth.ts';
import './charts.css';

/** The plot's coordinates handed to a chart type, which draws only its own marks (bars, lines). */
export interface DrawArgs {
  /** y position of a value. */
  y: (value: number) => number;
  /** x position of the centre of label i. */
  x: (index: number) => number;
  /** Width of the slot each label gets. */
  band: number;
  format: (value: number) => string;
}

/**
 * What line and bar charts share: caption, legend, the switch between chart and table, the empty state,
 * and an SVG with <title>/<desc>, scales and axes, sized to its container.
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
    <figure className="chart" aria-labelledby={captionId}>
      <div className="chart-head">
        <figcaption id={captionId}>{title}</figcaption>
        {!empty && (
          <div className="chart-actions">
            <button
              type="button"
              className="secondary outline chart-toggle"
              aria-pressed={view === 'table'}
              onClick={() => setView(view === 'table' ? 'chart' : 'table')}
            >
              {view === 'table' ? t('charts.showChart') : t('charts.showTable')}
            </button>
            {props.actions}
          </div>
        )}
      </div>
      {empty ? (
        <p className="chart-empty">{t('charts.empty')}</p>
      ) : view === 'table' ? (
        <ChartTable caption={title} xLabel={xLabel} labels={labels} series={series} format={format} />
      ) : (
        <>
          {series.length > 1 && (
            <ul className="chart-legend">
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
          <div ref={ref} className="chart-canvas">
            <ChartSvg {...props} width={width} height={height} format={format} id={id} />
          </div>
          {description && <p className="chart-description">{description}</p>}
        </>
      )}
    </figure>
  );
}

function ChartSvg(props: ChartProps & { draw: (args: DrawArgs) => ReactNode; width: number; height: number; format: (value: number) => string; id: string }) {
  const { width, height, format, labels, series, title, description, id } = props;
  const ticks = niceTicks(maxValue(series), 5, props.integerValues);
  const y = linearScale(ticks[ticks.length - 1], height - MARGIN.bottom, MARGIN.top);
  const band = (width - MARGIN.left - MARGIN.right) / labels.length;
  const x = (i: number) => MARGIN.left + band * (i + 0.5);
  const titleId = `${id}-title`;
  const descId = `${id}-desc`;
  return (
    <svg
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-labelledby={description ? `${titleId} ${descId}` : titleId}
      className="chart-svg"
    >
      <title id={titleId}>{title}</title>
      {description && <desc id={descId}>{description}</desc>}
      <Axes width={width} height={height} ticks={ticks} y={y} labels={labels} x={x} xLabel={props.xLabel} yLabel={props.yLabel} format={format} />
      {props.draw({ x, y, band, format })}
    </svg>
  );
}

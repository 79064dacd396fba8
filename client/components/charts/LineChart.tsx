import { ChartFrame } from './ChartFrame.tsx';
import { colourOf } from './scale.ts';
import type { ChartProps } from './types.ts';

/** Points are drawn (and get a tooltip) only when there are few enough to tell apart. */
const MAX_MARKERS = 62;

/** A line per series over the labels; null values break the line. */
export function LineChart(props: ChartProps) {
  return (
    <ChartFrame
      {...props}
      draw={({ x, y, format }) => {
        const { labels, series } = props;
        return series.map((s, si) => (
          <g key={s.name} className="chart-series" data-series={s.name}>
            <path d={linePath(s.values, x, y)} fill="none" stroke={colourOf(si)} strokeWidth="2" strokeLinejoin="round" />
            {labels.length <= MAX_MARKERS &&
              s.values.map((value, i) =>
                value === null || !Number.isFinite(value) ? null : (
                  // biome-ignore lint/suspicious/noArrayIndexKey: one point per day of the period; the position is the identity
                  <circle key={i} cx={x(i)} cy={y(value)} r="3.5" fill={colourOf(si)}>
                    <title>{`${s.name}, ${labels[i]}: ${format(value)}`}</title>
                  </circle>
                ),
              )}
          </g>
        ));
      }}
    />
  );
}

/** SVG path data; a null starts a new segment instead of drawing through the gap. */
export function linePath(values: readonly (number | null)[], x: (i: number) => number, y: (v: number) => number): string {
  let d = '';
  let pen = false;
  values.forEach((value, i) => {
    if (value === null || !Number.isFinite(value)) {
      pen = false;
      return;
    }
    d += `${pen ? 'L' : 'M'}${x(i).toFixed(1)} ${y(value).toFixed(1)}`;
    pen = true;
  });
  return d;
}

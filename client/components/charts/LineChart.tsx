import { Axes, MARGIN } from './Axes.tsx';
import { ChartFrame } from './ChartFrame.tsx';
import { colourOf, linearScale, maxValue, niceTicks } from './scale.ts';
import type { ChartProps } from './types.ts';

/** Points are drawn (and get a tooltip) only when there are few enough to tell apart. */
const MAX_MARKERS = 62;

/** A line per series over the labels; null values break the line. */
export function LineChart(props: ChartProps) {
  return (
    <ChartFrame
      {...props}
      draw={({ width, height, format, titleId, descId }) => {
        const { labels, series, title, description } = props;
        const ticks = niceTicks(maxValue(series), 5, props.integerValues);
        const y = linearScale(ticks[ticks.length - 1], height - MARGIN.bottom, MARGIN.top);
        const band = (width - MARGIN.left - MARGIN.right) / labels.length;
        const x = (i: number) => MARGIN.left + band * (i + 0.5);
        return (
          <svg
            width={width}
            height={height}
            viewBox={`0 0 ${width} ${height}`}
            role="img"
            aria-labelledby={description ? `${titleId} ${descId}` : titleId}
            class="chart-svg"
          >
            <title id={titleId}>{title}</title>
            {description && <desc id={descId}>{description}</desc>}
            <Axes
              width={width}
              height={height}
              ticks={ticks}
              y={y}
              labels={labels}
              x={x}
              xLabel={props.xLabel}
              yLabel={props.yLabel}
              format={format}
            />
            {series.map((s, si) => (
              <g key={s.name} class="chart-series" data-series={s.name}>
                <path d={linePath(s.values, x, y)} fill="none" stroke={colourOf(si)} stroke-width="2" stroke-linejoin="round" />
                {labels.length <= MAX_MARKERS &&
                  s.values.map((value, i) =>
                    value === null || !Number.isFinite(value) ? null : (
                      <circle key={i} cx={x(i)} cy={y(value)} r="3.5" fill={colourOf(si)}>
                        <title>{`${s.name}, ${labels[i]}: ${format(value)}`}</title>
                      </circle>
                    ),
                  )}
              </g>
            ))}
          </svg>
        );
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

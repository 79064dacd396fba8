import { Axes, MARGIN } from './Axes.tsx';
import { ChartFrame } from './ChartFrame.tsx';
import { colourOf, linearScale, maxValue, niceTicks } from './scale.ts';
import type { ChartProps } from './types.ts';

/** Grouped bars: one group per label, one bar per series. */
export function BarChart(props: ChartProps) {
  return (
    <ChartFrame
      {...props}
      draw={({ width, height, format, titleId, descId }) => {
        const { labels, series, title, description } = props;
        const ticks = niceTicks(maxValue(series), 5, props.integerValues);
        const y = linearScale(ticks[ticks.length - 1], height - MARGIN.bottom, MARGIN.top);
        const band = (width - MARGIN.left - MARGIN.right) / labels.length;
        const x = (i: number) => MARGIN.left + band * (i + 0.5);
        const groupWidth = band * 0.8;
        const barWidth = Math.max(1, groupWidth / series.length - (series.length > 1 ? 1 : 0));
        const base = y(0);
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
              <g key={s.name} class="chart-series" data-series={s.name} fill={colourOf(si)}>
                {s.values.map((value, i) => {
                  if (value === null || !Number.isFinite(value)) return null;
                  const left = x(i) - groupWidth / 2 + si * (groupWidth / series.length);
                  const top = y(Math.max(0, value));
                  return (
                    <rect key={i} x={left.toFixed(1)} y={top.toFixed(1)} width={barWidth.toFixed(1)} height={Math.max(0, base - top).toFixed(1)}>
                      <title>{`${s.name}, ${labels[i]}: ${format(value)}`}</title>
                    </rect>
                  );
                })}
              </g>
            ))}
          </svg>
        );
      }}
    />
  );
}

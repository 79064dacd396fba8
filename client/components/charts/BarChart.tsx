import { ChartFrame } from './ChartFrame.tsx';
import { colourOf } from './scale.ts';
import type { ChartProps } from './types.ts';

/** Grouped bars: one group per label, one bar per series. */
export function BarChart(props: ChartProps) {
  return (
    <ChartFrame
      {...props}
      draw={({ x, y, band, format }) => {
        const { labels, series } = props;
        const groupWidth = band * 0.8;
        const barWidth = Math.max(1, groupWidth / series.length - (series.length > 1 ? 1 : 0));
        const base = y(0);
        return series.map((s, si) => (
          <g key={s.name} className="chart-series" data-series={s.name} fill={colourOf(si)}>
            {s.values.map((value, i) => {
              if (value === null || !Number.isFinite(value)) return null;
              const left = x(i) - groupWidth / 2 + si * (groupWidth / series.length);
              const top = y(Math.max(0, value));
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: one bar per day of the period; the position is the identity
                <rect key={i} x={left.toFixed(1)} y={top.toFixed(1)} width={barWidth.toFixed(1)} height={Math.max(0, base - top).toFixed(1)}>
                  <title>{`${s.name}, ${labels[i]}: ${format(value)}`}</title>
                </rect>
              );
            })}
          </g>
        ));
      }}
    />
  );
}

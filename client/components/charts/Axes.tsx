import { labelIndexes, labelRoom } from './scale.ts';

export const MARGIN = { top: 12, right: 16, bottom: 48, left: 68 };

interface Props {
  width: number;
  height: number;
  ticks: readonly number[];
  y: (value: number) => number;
  labels: readonly string[];
  /** x position of the centre of label i. */
  x: (index: number) => number;
  xLabel: string;
  yLabel: string;
  format: (value: number) => string;
}

/** Grid lines, tick labels and axis titles; decorative for screen readers (the table carries the data). */
export function Axes({ width, height, ticks, y, labels, x, xLabel, yLabel, format }: Props) {
  const plotBottom = height - MARGIN.bottom;
  const plotWidth = width - MARGIN.left - MARGIN.right;
  const shown = labelIndexes(labels.length, labelRoom(plotWidth, labels));
  return (
    // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an SVG group is not focusable; the chart's numbers are in the table beside it
    <g aria-hidden="true" fontSize="12" fill="currentColor">
      {ticks.map((tick) => (
        <g key={tick}>
          <line x1={MARGIN.left} x2={width - MARGIN.right} y1={y(tick)} y2={y(tick)} stroke="currentColor" strokeOpacity={tick === 0 ? 0.6 : 0.15} />
          <text x={MARGIN.left - 6} y={y(tick)} textAnchor="end" dominantBaseline="middle">
            {format(tick)}
          </text>
        </g>
      ))}
      {shown.map((i) => {
        // Labels at the edges are anchored inwards so they are not cut off.
        const anchor = x(i) + 36 > width ? 'end' : x(i) - 36 < 0 ? 'start' : 'middle';
        return (
          <text key={i} x={x(i)} y={plotBottom + 16} textAnchor={anchor}>
            {labels[i]}
          </text>
        );
      })}
      <text x={MARGIN.left + plotWidth / 2} y={height - 6} textAnchor="middle" fontWeight="600">
        {xLabel}
      </text>
      <text transform={`translate(14 ${MARGIN.top + (plotBottom - MARGIN.top) / 2}) rotate(-90)`} textAnchor="middle" fontWeight="600">
        {yLabel}
      </text>
    </g>
  );
}

import type { ReactNode } from 'react';

export interface ChartSeries {
  name: string;
  /** One value per label; null is a gap (no data), shown as a dash in the table. */
  values: readonly (number | null)[];
}

export interface ChartProps {
  /** Visible caption, and the SVG <title> screen readers announce. */
  title: string;
  /** Longer text for the SVG <desc> (e.g. the period shown). */
  description?: string;
  /** Already formatted x labels (dates, names), one per value. */
  labels: readonly string[];
  series: readonly ChartSeries[];
  xLabel: string;
  yLabel: string;
  /** Formats values for ticks, tooltips and the table; default: formatNumber in the active locale. */
  formatValue?: (value: number) => string;
  /** The values are counts: axis ticks are whole numbers. */
  integerValues?: boolean;
  /** Start with the table instead of the chart. */
  initialView?: 'chart' | 'table';
  /** More buttons beside the chart/table switch (Controlling's CSV download). */
  actions?: ReactNode;
  /** Drawing height in px (the width follows the container). */
  height?: number;
}

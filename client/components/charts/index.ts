export { LineChart } from './LineChart.tsx';
export { BarChart } from './BarChart.tsx';
export type { ChartProps, ChartSeries } from './types.ts';

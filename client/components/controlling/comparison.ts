import { formatNumber, t } from '../../lib/i18n.ts';
import type { ComparisonBasis } from '../../lib/period-ranges.ts';

const percent = (value: number, signDisplay: 'always' | 'never') => formatNumber(value, { style: 'percent', signDisplay, maximumFractionDigits: 0 });

/**
 * "+14 % gegenüber Vormonat (vorher 37)": the change of a figure against the previous period, and that period's
 * value. Without a previous value to divide by, the change is the difference ("+5"), never "∞ %".
 */
export function comparisonText(current: number, previous: number, basis: ComparisonBasis): string {
  let change: string;
  if (current === previous) change = `±${previous === 0 ? formatNumber(0) : percent(0, 'never')}`;
  else if (previous === 0) change = formatNumber(current, { signDisplay: 'always' });
  else change = percent((current - previous) / previous, 'always');
  return t('stats.compare.changed', { change, against: t(`stats.compare.against.${basis}`), previous: formatNumber(previous) });
}

/** Up, down or level, for the arrow beside the text (the text alone carries the meaning). */
export const direction = (current: number, previous: number) => (current > previous ? 'up' : current < previous ? 'down' : 'level');

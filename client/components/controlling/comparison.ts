import { formatNumber, t } from '../../lib/i18n.ts';
import type { ComparisonBasis } from '../../lib/period-ranges.ts';

/**
 * "+14 % gegenüber Vormonat (vorher 37)": the change of a figure against the previous period and that period's
 * value. Without a previous value to divide by the change is the difference ("+5"), never "∞ %".
 */
export function comparisonText(current: number, previous: number, basis: ComparisonBasis): string {
  const against = t(`stats.compare.against.${basis}`);
  const before = formatNumber(previous);
  if (current === previous) return t('stats.compare.unchanged', { against, previous: before });
  const change =
    previous === 0
      ? formatNumber(current - previous, { signDisplay: 'always' })
      : formatNumber((current - previous) / previous, { style: 'percent', signDisplay: 'always', maximumFractionDigits: 0 });
  return t('stats.compare.changed', { change, against, previous: before });
}

/** Up, down or level, for the arrow beside the text (the text alone carries the meaning). */
export const direction = (current: number, previous: number) => (current > previous ? 'up' : current < previous ? 'down' : 'level');

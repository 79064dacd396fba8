import { formatNumber, t } from '../lib/i18n.ts';

/** True for a figure the API gave (a missing one reads as NaN: client/data/reading.ts). */
export const isGiven = (value: number): boolean => Number.isFinite(value);

/** A figure as text; "–" when the API does not give it. */
export const figureText = (value: number, format: (value: number) => string = formatNumber): string => (isGiven(value) ? format(value) : '–');

/**
 * A count or sum as shown on a tile: the number, or "–" with the reason on hover (and for screen readers) when the
 * API cannot give it — never 0, which would read as "none".
 */
export function Figure({ value, format = formatNumber }: { value: number; format?: (value: number) => string }) {
  if (isGiven(value)) return <>{format(value)}</>;
  const reason = t('figure.unavailable');
  return (
    <span className="figure-unavailable" title={reason}>
      <span aria-hidden="true">–</span>
      <span className="visually-hidden">{reason}</span>
    </span>
  );
}

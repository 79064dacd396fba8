import { t } from '../lib/i18n.ts';
import { daysSince, freshness, type Freshness } from './freshness.ts';

/** The label for "last data": "heute", "vor 3 Tagen", "nie". */
export function lastDataText(lastDataAt: string | null | undefined, now = new Date()): string {
  const days = daysSince(lastDataAt, now);
  if (days === null) return t('freshness.never');
  if (days === 0) return t('freshness.today');
  if (days === 1) return t('freshness.yesterday');
  return t('freshness.daysAgo', { n: days });
}

/**
 * Traffic-light dot plus text. The colour is never the only signal: the text says the age and the
 * dot has a shape per level for people who cannot tell red from green.
 */
export function FreshnessBadge({ lastDataAt, now }: { lastDataAt: string | null | undefined; now?: Date }) {
  const level: Freshness = freshness(lastDataAt, now);
  return (
    <span className={`freshness freshness-${level}`} title={t(`freshness.level.${level}`)}>
      <span className="freshness-dot" aria-hidden="true" />
      <span>{lastDataText(lastDataAt, now)}</span>
      <span className="visually-hidden"> ({t(`freshness.level.${level}`)})</span>
    </span>
  );
}

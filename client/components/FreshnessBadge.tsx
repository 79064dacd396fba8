import { t } from '../lib/i18n.ts';
import { aftercareEnded, daysSince, freshness, type Freshness } from '../domain/freshness.ts';

/** The label for "last data": "heute", "vor 3 Tagen", "nie". */
export function lastDataText(lastDataAt: string | null | undefined, now = new Date()): string {
  const days = daysSince(lastDataAt, now);
  if (days === null) return t('freshness.never');
  if (days === 0) return t('freshness.today');
  if (days === 1) return t('freshness.yesterday');
  return t('freshness.daysAgo', { n: days });
}

interface Props {
  lastDataAt: string | null | undefined;
  /** The patient's last day of aftercare: once it has passed, the badge is neutral instead of a traffic light. */
  aftercareEnd?: string | null;
  now?: Date;
}

/**
 * Traffic-light dot plus text. The colour is never the only signal: the text says the age and the
 * dot has a shape per level for people who cannot tell red from green.
 */
export function FreshnessBadge({ lastDataAt, aftercareEnd, now }: Props) {
  const level: Freshness | 'ended' = aftercareEnded(aftercareEnd, now) ? 'ended' : freshness(lastDataAt, now);
  const meaning = level === 'ended' ? t('identity.aftercareEnded') : t(`freshness.level.${level}`);
  return (
    <span className={`freshness freshness-${level}`} title={meaning}>
      <span className="freshness-dot" aria-hidden="true" />
      <span>{lastDataText(lastDataAt, now)}</span>
      <span className="visually-hidden"> ({meaning})</span>
    </span>
  );
}

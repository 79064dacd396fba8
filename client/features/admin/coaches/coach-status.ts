import type { Coach } from '../../../../contract/schemas/coaches.ts';
import { formatDate, t } from '../../../lib/i18n.ts';

export interface StatusTag {
  key: string;
  text: string;
  tone: 'ok' | 'warning' | 'danger' | 'info';
}

/** Short state labels for a coach: locked, email not confirmed, trial end, or active. */
export function coachStatus(coach: Pick<Coach, 'isUserLocked' | 'emailVerified' | 'trialEndsAt'>, now = new Date()): StatusTag[] {
  const tags: StatusTag[] = [];
  if (coach.isUserLocked) tags.push({ key: 'locked', text: t('admin.state.locked'), tone: 'danger' });
  if (!coach.emailVerified) tags.push({ key: 'unverified', text: t('admin.state.unverified'), tone: 'warning' });
  if (coach.trialEndsAt) {
    const ends = new Date(coach.trialEndsAt);
    if (!Number.isNaN(ends.getTime())) {
      tags.push(
        ends < now
          ? { key: 'trial', text: t('admin.state.trialEnded'), tone: 'danger' }
          : { key: 'trial', text: t('admin.state.trialUntil', { date: formatDate(ends) }), tone: 'info' },
      );
    }
  }
  if (tags.length === 0) tags.push({ key: 'active', text: t('admin.state.active'), tone: 'ok' });
  return tags;
}

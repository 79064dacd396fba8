import type { ListCount } from '../data/paging.ts';
import { formatNumber, t } from '../lib/i18n.ts';

/** "1.234", or "mehr als 25" when the upstream did not say how many there are. */
export const formatCount = ({ count, exact }: ListCount): string => (exact ? formatNumber(count) : t('common.moreThan', { n: formatNumber(count) }));

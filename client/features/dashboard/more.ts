import type { ListCount } from '../../data/paging.ts';
import { formatNumber, t } from '../../lib/i18n.ts';

export const patientLink = (id: string, tab?: string) => `/patient/${encodeURIComponent(id)}${tab ? `?tab=${tab}` : ''}`;
export const moreThanShown = (total: ListCount, shown: number) => !total.exact || total.count > shown;
/** "Alle 12 anzeigen", or "Alle anzeigen" when the upstream did not say how many there are. */
export const allText = (key: string, total: ListCount) => (total.exact ? t(key, { n: formatNumber(total.count) }) : t('common.showAll'));

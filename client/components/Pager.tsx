import type { ListCount } from '../data/paging.ts';
import { t, formatNumber } from '../lib/i18n.ts';
import { formatCount } from './list-count.ts';

interface Props {
  /** Zero-based page index. */
  page: number;
  pageSize: number;
  /** Rows in the whole list; not exact when the upstream does not count (then "von mehr als 50"). */
  count: ListCount;
  /** Rows on the shown page. */
  shown: number;
  onPage: (page: number) => void;
  label?: string;
}

/** Previous / next paging with "21-40 von 63"; buttons, not links, because the URL is updated by the owner. */
export function Pager({ page, pageSize, count, shown, onPage, label }: Props) {
  // Without an exact count the last page is unknown: "Weiter" stays open while a next page exists.
  const pages = count.exact ? Math.max(1, Math.ceil(count.count / pageSize)) : page + 2;
  const current = Math.min(page, pages - 1);
  const from = shown === 0 ? 0 : current * pageSize + 1;
  const to = current * pageSize + shown;
  return (
    <nav className="pager" aria-label={label ?? t('pager.label')}>
      <button type="button" className="secondary outline" disabled={current <= 0} onClick={() => onPage(current - 1)}>
        {t('pager.previous')}
      </button>
      <span aria-live="polite">{t('pager.range', { from: formatNumber(from), to: formatNumber(to), total: formatCount(count) })}</span>
      <button type="button" className="secondary outline" disabled={current >= pages - 1} onClick={() => onPage(current + 1)}>
        {t('pager.next')}
      </button>
    </nav>
  );
}

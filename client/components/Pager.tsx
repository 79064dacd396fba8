import { t, formatNumber } from '../lib/i18n.ts';

interface Props {
  /** Zero-based page index. */
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  label?: string;
}

/** Previous / next paging with "21-40 von 63"; buttons, not links, because the URL is updated by the owner. */
export function Pager({ page, pageSize, total, onPage, label }: Props) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const current = Math.min(page, pages - 1);
  const from = total === 0 ? 0 : current * pageSize + 1;
  const to = Math.min(total, (current + 1) * pageSize);
  return (
    <nav className="pager" aria-label={label ?? t('pager.label')}>
      <button type="button" className="secondary outline" disabled={current <= 0} onClick={() => onPage(current - 1)}>
        {t('pager.previous')}
      </button>
      <span aria-live="polite">
        {t('pager.range', { from: formatNumber(from), to: formatNumber(to), total: formatNumber(total) })}
      </span>
      <button type="button" className="secondary outline" disabled={current >= pages - 1} onClick={() => onPage(current + 1)}>
        {t('pager.next')}
      </button>
    </nav>
  );
}

import { useLocation, useSearch } from 'wouter';
import { listCoaches } from '../../api/coaches.ts';
import { useResource } from '../../components/useResource.ts';
import { t } from '../../lib/i18n.ts';
import { can } from '../../components/permissions.ts';
import { DailyCharts } from './DailyCharts.tsx';
import { DEFAULT_SORT, DetailTable, SORT_FIELDS, type Sort, type SortField } from './DetailTable.tsx';
import { PeriodForm } from './PeriodForm.tsx';
import { SummaryCards } from './SummaryCards.tsx';
import { periodFromSearch, type Period } from './period.ts';
import './stats.css';

function sortFromSearch(params: URLSearchParams): Sort {
  const [field, direction] = (params.get('sort') ?? '').split(' ');
  if (!SORT_FIELDS.includes(field as SortField) || (direction !== 'ASC' && direction !== 'DESC')) return DEFAULT_SORT;
  return { field: field as SortField, direction };
}

/** Controlling: period, patient figures, daily charts and the sortable per-patient table; all kept in the URL. */
export default function StatsPage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const params = new URLSearchParams(search);
  const period = periodFromSearch(search);
  const sort = sortFromSearch(params);
  const coaches = useResource((signal) => listCoaches({ order: ['lastName ASC', 'firstName ASC'], limit: 1000 }, signal), 'coaches');
  const page = Math.max(0, Number.parseInt(params.get('page') ?? '0', 10) || 0);

  const go = (next: { period?: Period; sort?: Sort; page?: number }) => {
    const p = next.period ?? period;
    const s = next.sort ?? sort;
    const query = new URLSearchParams({ from: p.from, to: p.to, sort: `${s.field} ${s.direction}` });
    if (p.coachId) query.set('coach', p.coachId);
    const nextPage = next.page ?? 0;
    if (nextPage > 0) query.set('page', String(nextPage));
    navigate(`/stats?${query.toString()}`, { replace: true });
  };

  if (!can('seeStatistics')) {
    return (
      <section className="stats-page">
        <h1>{t('stats.title')}</h1>
        <p role="alert">{t('stats.notAllowed')}</p>
      </section>
    );
  }

  return (
    <section className="stats-page">
      <h1>{t('stats.title')}</h1>
      <PeriodForm period={period} coaches={coaches.data ?? []} onChange={(p) => go({ period: p })} />
      <SummaryCards period={period} />
      <DailyCharts period={period} />
      <DetailTable period={period} sort={sort} page={page} onSort={(s) => go({ sort: s })} onPage={(n) => go({ page: n })} />
    </section>
  );
}

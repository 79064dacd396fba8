import { useLocation, useSearch } from 'wouter';
import { listCoaches } from '../../api/coaches.ts';
import { useQuery } from '../../data/useQuery.ts';
import { t } from '../../lib/i18n.ts';
import { can } from '../../domain/permissions.ts';
import { DailyCharts } from './DailyCharts.tsx';
import { DEFAULT_SORT, DetailTable, SORT_FIELDS, type Sort, type SortField } from './DetailTable.tsx';
import { PeriodForm } from './PeriodForm.tsx';
import { SummaryTiles } from '../../components/controlling/SummaryTiles.tsx';
import { todayIso, type Period } from '../../lib/period.ts';
import { RANGE_BASIS, periodFromAddress, type CalendarRange } from '../../lib/period-ranges.ts';
import './stats.css';
import { readAll } from '../../data/fetch-all.ts';

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
  const today = todayIso();
  const { period, range } = periodFromAddress(search, today);
  const sort = sortFromSearch(params);
  const coaches = useQuery((signal) => readAll((range) => listCoaches({ order: ['lastName ASC', 'firstName ASC'], ...range }, signal), signal), 'coaches');
  const page = Math.max(0, Number.parseInt(params.get('page') ?? '0', 10) || 0);

  // A calendar range stays a range in the address; a free range is its two days.
  const go = (next: { period?: Period; range?: CalendarRange | null; sort?: Sort; page?: number }) => {
    const p = next.period ?? period;
    const r = next.period ? (next.range ?? null) : range;
    const s = next.sort ?? sort;
    const query = new URLSearchParams(r ? { range: r } : { from: p.from, to: p.to });
    query.set('sort', `${s.field} ${s.direction}`);
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
      <PeriodForm period={period} range={range} today={today} coaches={coaches.data ?? []} onChange={(p, r) => go({ period: p, range: r })} />
      <SummaryTiles
        period={period}
        today={today}
        basis={range ? RANGE_BASIS[range] : undefined}
        headingId="stats-summary-heading"
        heading={t('stats.summaryHeading')}
      />
      <DailyCharts period={period} />
      <DetailTable period={period} sort={sort} page={page} onSort={(s) => go({ sort: s })} onPage={(n) => go({ page: n })} />
    </section>
  );
}

import { listCount, listPage } from '../../data/paging.ts';
import { getPatientDetailStatistics } from '../../api/statistics.ts';
import type { PatientDetailStatisticsRow } from '../../../contract/schemas/statistics.ts';
import { DataState } from '../../components/DataState.tsx';
import { Pager } from '../../components/Pager.tsx';
import { useQuery } from '../../data/useQuery.ts';
import { formatDate, t } from '../../lib/i18n.ts';
import { figureText } from '../../components/Figure.tsx';
import { formatDay, type Period } from '../../lib/period.ts';
import { patientListName } from '../../lib/names.ts';
import { SortMark } from '../../components/SortMark.tsx';

export const PAGE_SIZE = 25;
/** The columns of the table, each sortable (the order of the URL's `sort`). */
// biome-ignore format: one line, as the columns read across the table
export const SORT_FIELDS = ['patientCode', 'lastName', 'primaryCoachName', 'status', 'aftercareStart', 'aftercareEnd', 'daysInAftercare', 'phoneCoachings', 'phoneCoachingMinutes', 'dayEvaluations', 'lastDataAt'] as const;
export type SortField = (typeof SORT_FIELDS)[number];
export interface Sort {
  field: SortField;
  direction: 'ASC' | 'DESC';
}
export const DEFAULT_SORT: Sort = { field: 'lastName', direction: 'ASC' };
const NUMERIC: SortField[] = ['daysInAftercare', 'phoneCoachings', 'phoneCoachingMinutes', 'dayEvaluations'];

interface Column {
  field: SortField;
  cell: (row: PatientDetailStatisticsRow) => string;
}

/** A patient the caller may not open is shown under its pseudonym, without a name (the server sends neither). */
export const pseudonymOf = (row: PatientDetailStatisticsRow) =>
  t('stats.pseudonym', {
    id: row.rowId
      .replace(/^pseudo-/, '')
      .slice(0, 8)
      .toUpperCase(),
  });

const COLUMNS: Column[] = [
  { field: 'patientCode', cell: (r) => r.patientCode ?? pseudonymOf(r) },
  {
    field: 'lastName',
    cell: (r) =>
      r.lastName === null && r.firstName === null
        ? t('stats.nameHidden')
        : patientListName({ firstName: r.firstName ?? '', lastName: r.lastName ?? '', patientCode: r.patientCode ?? pseudonymOf(r) }),
  },
  { field: 'primaryCoachName', cell: (r) => r.primaryCoachName || t('stats.noCoach') },
  { field: 'status', cell: (r) => t(`stats.status.${r.status}`) },
  { field: 'aftercareStart', cell: (r) => formatDay(r.aftercareStart) },
  { field: 'aftercareEnd', cell: (r) => formatDay(r.aftercareEnd) },
  { field: 'daysInAftercare', cell: (r) => figureText(r.daysInAftercare) },
  { field: 'phoneCoachings', cell: (r) => figureText(r.phoneCoachings) },
  { field: 'phoneCoachingMinutes', cell: (r) => figureText(r.phoneCoachingMinutes) },
  { field: 'dayEvaluations', cell: (r) => figureText(r.dayEvaluations) },
  { field: 'lastDataAt', cell: (r) => (r.lastDataAt ? formatDate(r.lastDataAt) : t('stats.never')) },
];

interface Props {
  period: Period;
  sort: Sort;
  page: number;
  onSort: (sort: Sort) => void;
  onPage: (page: number) => void;
}

/** One row per patient, sorted and paged by the server so it works for any number of patients. */
export function DetailTable({ period, sort, page, onSort, onPage }: Props) {
  const order = `${sort.field} ${sort.direction}`;
  const rows = useQuery(
    (signal) => listPage((range) => getPatientDetailStatistics({ ...period, order, ...range }, signal), PAGE_SIZE, page * PAGE_SIZE),
    `${period.from}|${period.to}|${period.coachId ?? ''}|${order}|${page}`,
  );
  const data = rows.data ?? [];
  const count = listCount(rows.total, page * PAGE_SIZE + data.length);

  const toggle = (field: SortField) => {
    if (sort.field === field) onSort({ field, direction: sort.direction === 'ASC' ? 'DESC' : 'ASC' });
    else onSort({ field, direction: NUMERIC.includes(field) ? 'DESC' : 'ASC' });
  };

  return (
    <section aria-labelledby="stats-detail-heading">
      <h2 id="stats-detail-heading">{t('stats.detailHeading')}</h2>
      <DataState
        status={rows.status}
        error={rows.error}
        onRetry={rows.reload}
        hasData={data.length > 0}
        empty={data.length === 0}
        emptyText={t('stats.detailEmpty')}
      >
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe: scrollable-region-focusable) */}
        <div className="table-scroll" tabIndex={0} role="region" aria-label={t('stats.detailTable')}>
          <table className="stats-table" aria-busy={rows.status === 'loading'}>
            <thead>
              <tr>
                {COLUMNS.map(({ field }) => {
                  const active = sort.field === field;
                  return (
                    <th
                      key={field}
                      scope="col"
                      aria-sort={active ? (sort.direction === 'ASC' ? 'ascending' : 'descending') : undefined}
                      data-numeric={NUMERIC.includes(field) ? '' : undefined}
                    >
                      <button type="button" className="sort-button" onClick={() => toggle(field)}>
                        {t(`stats.column.${field}`)}
                        <SortMark direction={active ? (sort.direction === 'ASC' ? 'asc' : 'desc') : null} />
                      </button>
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {data.map((row) => (
                <tr key={row.rowId || row.patientId || row.patientCode}>
                  {COLUMNS.map(({ field, cell }) => (
                    <td key={field} data-numeric={NUMERIC.includes(field) ? '' : undefined}>
                      {cell(row)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Pager page={page} pageSize={PAGE_SIZE} count={count} shown={data.length} onPage={onPage} label={t('stats.detailPager')} />
      </DataState>
    </section>
  );
}

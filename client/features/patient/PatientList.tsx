import { memo, useMemo } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { listCoaches } from '../../api/coaches.ts';
import { listPatients } from '../../api/patients.ts';
import { listCount, listPage } from '../../data/paging.ts';
import type { Coach } from '../../../contract/schemas/coaches.ts';
import type { Patient } from '../../../contract/schemas/patients.ts';
import { AftercareBadge, dayText } from '../../components/AftercareBadge.tsx';
import { DataState, listState } from '../../components/DataState.tsx';
import { FreshnessBadge } from '../../components/FreshnessBadge.tsx';
import { Pager } from '../../components/Pager.tsx';
import { formatCount } from '../../components/list-count.ts';
import { can } from '../../domain/permissions.ts';
import { systemSettings } from '../../state/settings.ts';
import { cancelWaiting, showWhenLoaded, useQuery } from '../../data/useQuery.ts';
import { formatDate, t } from '../../lib/i18n.ts';
import { BirthDate } from '../../components/BirthDate.tsx';
import { nextAppointment, telHref } from '../../lib/identity.ts';
import { user } from '../../state/session.ts';
import { listQueryToSearch, parseListQuery, toListFilter, type ListQuery } from './listQuery.ts';
import { coachName, patientListName } from '../../lib/names.ts';
import { Filters } from './PatientListFilters.tsx';
import { SortMark } from '../../components/SortMark.tsx';
import { readAll } from '../../data/fetch-all.ts';

/** Columns; `sort` names the field a column header sorts by (the others are not sortable by the API). */
const COLUMNS: { key: string; label: string; sort?: string }[] = [
  { key: 'name', label: 'patient.list.name', sort: 'lastName' },
  { key: 'code', label: 'patient.list.code', sort: 'patientCode' },
  { key: 'coach', label: 'patient.list.primaryCoach' },
  { key: 'phone', label: 'patient.list.phone' },
  { key: 'aftercare', label: 'patient.list.aftercare', sort: 'aftercareEnd' },
  { key: 'next', label: 'patient.list.nextAppointment' },
  { key: 'lastData', label: 'patient.list.lastData', sort: 'lastDataAt' },
];

/** The list's key and load for a query: useQuery's, and showWhenLoaded's for the query a change is about to show. */
const listKey = (query: ListQuery) => `patients${listQueryToSearch(query)}`;
const loadList = (query: ListQuery) => (signal: AbortSignal) => {
  const filter = toListFilter(query);
  return listPage((range) => listPatients({ ...filter, ...range }, signal), query.size, filter.skip);
};

export function PatientList() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const query = parseListQuery(search);
  const me = user.value;
  const setQuery = (change: Partial<ListQuery>, replace = false) => {
    // Any change other than paging starts again at page 1. Read back as the URL will give it (trimmed, cut to length),
    // so the page asked for ahead is the one the list then shows.
    const next = parseListQuery(listQueryToSearch({ ...query, page: 1, ...change }));
    const show = () => navigate(`/patient${listQueryToSearch(next)}`, { replace });
    if (listKey(next) !== listKey(query)) return showWhenLoaded(listKey(next), loadList(next), show);
    cancelWaiting();
    show();
  };

  const patients = useQuery(loadList(query), listKey(query));
  // The coach filter offers every colleague when the list can be read, otherwise "all" and "mine"; the primary
  // coach column names them (the caller's own name is known either way).
  const coaches = useQuery(
    (signal) => readAll((range) => listCoaches({ order: ['lastName ASC', 'firstName ASC'], ...range }, signal), signal).catch(() => ({ data: [] as Coach[] })),
    'coaches',
  );
  const coachNames = new Map((coaches.data ?? []).map((c) => [c.id, coachName(c)]));
  if (me && !coachNames.has(me.id)) coachNames.set(me.id, coachName(me));
  const primaryCoach = (id: string | null) => (id && coachNames.get(id)) || t('patient.none');

  const count = listCount(patients.total, (query.page - 1) * query.size + (patients.data?.length ?? 0));
  const filtered = !!(query.q || query.coach || query.status || query.last);
  // Per answer, not per render: the rows of a list that is being reloaded stay as they are (PatientRow is memo).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the moment the rows are read for is the moment their answer came
  const now = useMemo(() => Date.now(), [patients.data]);

  return (
    <section className="patient-list">
      <header className="page-header">
        <h1>{t('patient.title')}</h1>
        {can('createPatients', user.value, systemSettings.value) && (
          <Link href="/patient/new" role="button" className="page-header-action">
            {t('patient.list.create')}
          </Link>
        )}
      </header>

      <Filters query={query} coaches={coaches.data ?? []} myId={me?.id ?? ''} onChange={setQuery} />

      <p className="list-summary" aria-live="polite">
        {patients.status === 'ready' || patients.data ? t('patient.list.count', { n: formatCount(count) }) : '\u00a0'}
      </p>

      <DataState {...listState(patients, filtered ? t('patient.list.emptyFiltered') : t('patient.list.empty'))}>
        <div className="table-scroll" aria-busy={patients.status === 'loading'}>
          <table className="responsive-table">
            <caption className="visually-hidden">{t('patient.list.caption')}</caption>
            <thead>
              <tr>
                <SortableHeaders sort={query.sort} onSort={(sort) => setQuery({ sort })} />
              </tr>
            </thead>
            <tbody>
              {(patients.data ?? []).map((p) => (
                <PatientRow key={p.id} patient={p} coach={primaryCoach(p.primaryCoachId)} now={now} />
              ))}
            </tbody>
          </table>
        </div>
        {(!count.exact || count.count > query.size || query.page > 1) && (
          <Pager page={query.page - 1} pageSize={query.size} count={count} shown={patients.data?.length ?? 0} onPage={(page) => setQuery({ page: page + 1 })} />
        )}
      </DataState>
    </section>
  );
}

/** The column headers; a sortable column sorts by its field, a second click the other way round. */
function SortableHeaders({ sort, onSort }: { sort: string; onSort: (sort: string) => void }) {
  return (
    <>
      {COLUMNS.map((col) => {
        if (!col.sort)
          return (
            <th key={col.key} scope="col">
              {t(col.label)}
            </th>
          );
        const active = sort.replace(/^-/, '') === col.sort;
        const desc = active && sort.startsWith('-');
        return (
          <th key={col.key} scope="col" aria-sort={active ? (desc ? 'descending' : 'ascending') : 'none'}>
            <button type="button" className="sort-button" onClick={() => onSort(active && !desc ? `-${col.sort}` : col.sort!)}>
              {t(col.label)}
              <SortMark direction={active ? (desc ? 'desc' : 'asc') : null} />
            </button>
          </th>
        );
      })}
    </>
  );
}

/** One patient of the list; `coach` is the primary coach's name. Drawn again only when one of them changes. */
const PatientRow = memo(function PatientRow({ patient: p, coach, now }: { patient: Patient; coach: string; now: number }) {
  const next = nextAppointment(p, now);
  return (
    <tr>
      <td data-label={t('patient.list.name')}>
        <Link href={`/patient/${encodeURIComponent(p.id)}`}>{patientListName(p)}</Link>
        <BirthDate birthDate={p.birthDate} now={new Date(now)} />
      </td>
      <td data-label={t('patient.list.code')}>
        <code>{p.patientCode}</code>
      </td>
      <td data-label={t('patient.list.primaryCoach')}>{coach}</td>
      <td data-label={t('patient.list.phone')}>
        {p.phone ? (
          <a href={telHref(p.phone)} className="nowrap">
            {p.phone}
          </a>
        ) : (
          t('patient.none')
        )}
      </td>
      <td data-label={t('patient.list.aftercare')}>
        <AftercareBadge patient={p} />{' '}
        {(p.aftercareStart || p.aftercareEnd) && (
          <span className="nowrap">
            {dayText(p.aftercareStart)} – {dayText(p.aftercareEnd)}
          </span>
        )}
      </td>
      <td data-label={t('patient.list.nextAppointment')}>
        {next ? <span className="nowrap">{formatDate(next.startsAt, { dateStyle: 'medium', timeStyle: 'short' })}</span> : t('patient.none')}
      </td>
      <td data-label={t('patient.list.lastData')}>
        <FreshnessBadge lastDataAt={p.lastDataAt} aftercareEnd={p.aftercareEnd} />
      </td>
    </tr>
  );
});

import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { listCoaches } from '../../api/coaches.ts';
import { listPatients } from '../../api/patients.ts';
import { listCount, listPage } from '../../api/paging.ts';
import type { Coach } from '../../api/schemas/coaches.ts';
import { AftercareBadge, dayText } from '../../components/AftercareBadge.tsx';
import { DataState } from '../../components/DataState.tsx';
import { FreshnessBadge } from '../../components/FreshnessBadge.tsx';
import { Pager } from '../../components/Pager.tsx';
import { formatCount } from '../../components/list-count.ts';
import { canCreatePatients } from '../../components/permissions.ts';
import { useResource } from '../../components/useResource.ts';
import { t } from '../../lib/i18n.ts';
import { user } from '../../state/session.ts';
import { listQueryToSearch, PAGE_SIZE, parseListQuery, toListFilter, type ListQuery } from './listQuery.ts';
import { coachListName, patientListName } from '../../lib/names.ts';


const SORT_OPTIONS = ['lastName', '-lastName', 'patientCode', 'aftercareEnd', '-aftercareEnd', 'lastDataAt', '-lastDataAt'];

const COLUMNS: { field: string; label: string }[] = [
  { field: 'lastName', label: 'patient.list.name' },
  { field: 'patientCode', label: 'patient.list.code' },
  { field: 'aftercareEnd', label: 'patient.list.aftercare' },
  { field: 'lastDataAt', label: 'patient.list.lastData' },
];

export function PatientList() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const query = parseListQuery(search);
  const me = user.value;
  const setQuery = (change: Partial<ListQuery>, replace = false) => {
    // Any change other than paging starts again at page 1.
    const next = { ...query, page: 1, ...change };
    navigate(`/patient${listQueryToSearch(next)}`, { replace });
  };

  const patients = useResource((signal) => {
    const filter = toListFilter(query);
    return listPage((range) => listPatients({ ...filter, ...range }, signal), PAGE_SIZE, filter.skip);
  }, listQueryToSearch(query));
  // The coach filter offers every colleague when the list can be read, otherwise "all" and "mine".
  const coaches = useResource(
    (signal) => listCoaches({ order: ['lastName ASC', 'firstName ASC'], limit: 1000 }, signal).catch(() => ({ data: [] as Coach[] })),
    'coaches',
  );

  const count = listCount(patients.total, (query.page - 1) * PAGE_SIZE + (patients.data?.length ?? 0));
  const filtered = !!(query.q || query.coach || query.status || query.last);

  return (
    <section className="patient-list">
      <header className="page-header">
        <h1>{t('patient.title')}</h1>
        {canCreatePatients() && (
          <Link href="/patient/new" role="button" className="page-header-action">
            {t('patient.list.create')}
          </Link>
        )}
      </header>

      <Filters query={query} coaches={coaches.data ?? []} myId={me?.id ?? ''} onChange={setQuery} />

      <p className="list-summary" aria-live="polite">
        {patients.status === 'ready' || patients.data ? t('patient.list.count', { n: formatCount(count) }) : '\u00a0'}
      </p>

      <DataState
        status={patients.status}
        error={patients.error}
        onRetry={patients.reload}
        hasData={!!patients.data}
        empty={patients.data?.length === 0}
        emptyText={filtered ? t('patient.list.emptyFiltered') : t('patient.list.empty')}
      >
        <div className="table-scroll" aria-busy={patients.status === 'loading'}>
          <table className="responsive-table">
            <caption className="visually-hidden">{t('patient.list.caption')}</caption>
            <thead>
              <tr>
                {COLUMNS.map((col) => {
                  const active = query.sort.replace(/^-/, '') === col.field;
                  const desc = active && query.sort.startsWith('-');
                  return (
                    <th key={col.field} scope="col" aria-sort={active ? (desc ? 'descending' : 'ascending') : 'none'}>
                      <button
                        type="button"
                        className="sort-button"
                        onClick={() => setQuery({ sort: active && !desc ? `-${col.field}` : col.field })}
                      >
                        {t(col.label)}
                        <span aria-hidden="true" className="sort-mark">{active ? (desc ? '▼' : '▲') : '↕'}</span>
                      </button>
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {(patients.data ?? []).map((p) => (
                <tr key={p.id}>
                  <td data-label={t('patient.list.name')}>
                    <Link href={`/patient/${encodeURIComponent(p.id)}`}>
                      {patientListName(p)}
                    </Link>
                  </td>
                  <td data-label={t('patient.list.code')}>
                    <code>{p.patientCode}</code>
                  </td>
                  <td data-label={t('patient.list.aftercare')}>
                    <AftercareBadge patient={p} />{' '}
                    {(p.aftercareStart || p.aftercareEnd) && <span className="nowrap">{dayText(p.aftercareStart)} – {dayText(p.aftercareEnd)}</span>}
                  </td>
                  <td data-label={t('patient.list.lastData')}>
                    <FreshnessBadge lastDataAt={p.lastDataAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {(!count.exact || count.count > PAGE_SIZE) && (
          <Pager page={query.page - 1} pageSize={PAGE_SIZE} count={count} shown={patients.data?.length ?? 0} onPage={(page) => setQuery({ page: page + 1 })} />
        )}
      </DataState>
    </section>
  );
}

function Filters({ query, coaches, myId, onChange }: {
  query: ListQuery;
  coaches: Coach[];
  myId: string;
  onChange: (change: Partial<ListQuery>, replace?: boolean) => void;
}) {
  // The search box updates the URL after a short pause, not on every key (and replaces the history entry).
  const [text, setText] = useState(query.q);
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => setText(query.q), [query.q]);
  useEffect(() => {
    if (text.trim() === query.q.trim()) return;
    const timer = setTimeout(() => latest.current({ q: text }, true), 300);
    return () => clearTimeout(timer);
  }, [text]);

  return (
    // The <search> element is the search landmark. Not role="search" on the form: Pico styles that role as one
    // rounded input group (pill-shaped fields, a focus ring around the whole filter bar, half-rounded button).
    <search className="filters-landmark">
      <form className="filters" onSubmit={(e) => { e.preventDefault(); onChange({ q: text }); }}>
        <label>
          {t('patient.list.search')}
          <input type="search" value={text} placeholder={t('patient.list.searchPlaceholder')} onInput={(e) => setText((e.target as HTMLInputElement).value)} />
        </label>
        <label>
          {t('patient.list.coach')}
          <select value={query.coach} onChange={(e) => onChange({ coach: (e.target as HTMLSelectElement).value })}>
            <option value="">{t('patient.list.allCoaches')}</option>
            {myId && <option value={myId}>{t('patient.list.myPatients')}</option>}
            {coaches.filter((c) => c.id !== myId).map((c) => (
              <option key={c.id} value={c.id}>{coachListName(c)}</option>
            ))}
          </select>
        </label>
        <label>
          {t('patient.list.status')}
          <select value={query.status} onChange={(e) => onChange({ status: (e.target as HTMLSelectElement).value as ListQuery['status'] })}>
            <option value="">{t('patient.list.allStatuses')}</option>
            <option value="active">{t('freshness.aftercare.active')}</option>
            <option value="ending">{t('freshness.aftercare.ending')}</option>
            <option value="planned">{t('freshness.aftercare.planned')}</option>
            <option value="completed">{t('freshness.aftercare.completed')}</option>
          </select>
        </label>
        <label>
          {t('patient.list.lastData')}
          <select value={query.last} onChange={(e) => onChange({ last: (e.target as HTMLSelectElement).value as ListQuery['last'] })}>
            <option value="">{t('patient.list.allLastData')}</option>
            <option value="green">{t('freshness.level.green')}</option>
            <option value="yellow">{t('freshness.level.yellow')}</option>
            <option value="red">{t('freshness.level.red')}</option>
            <option value="grey">{t('freshness.level.grey')}</option>
          </select>
        </label>
        <label className="sort-select">
          {t('patient.list.sort')}
          <select value={query.sort} onChange={(e) => onChange({ sort: (e.target as HTMLSelectElement).value })}>
            {SORT_OPTIONS.map((value) => (
              <option key={value} value={value}>{t(`patient.list.sortBy.${value.replace('-', 'desc_')}`)}</option>
            ))}
          </select>
        </label>
        {(query.q || query.coach || query.status || query.last) && (
          <button type="button" className="secondary outline filters-reset" onClick={() => { setText(''); onChange({ q: '', coach: '', status: '', last: '' }); }}>
            {t('patient.list.resetFilters')}
          </button>
        )}
      </form>
    </search>
  );
}

import { useEffect, useRef, useState } from 'react';
import type { Coach } from '../../../contract/schemas/coaches.ts';
import { t } from '../../lib/i18n.ts';
import { coachListName } from '../../lib/names.ts';
import { isTouchFirst } from '../../lib/pointer.ts';
import { PAGE_SIZES, type ListQuery, type PageSize } from './listQuery.ts';
import { SEARCH_PAUSE_MS } from './search-pause.ts';

const SORT_OPTIONS = ['lastName', '-lastName', 'patientCode', 'aftercareEnd', '-aftercareEnd', 'lastDataAt', '-lastDataAt'];

/** The patient list's filter bar: search (name, code, phone), coach, status, last data, order and rows per page. */
export function Filters({
  query,
  coaches,
  myId,
  onChange,
}: {
  query: ListQuery;
  coaches: Coach[];
  myId: string;
  onChange: (change: Partial<ListQuery>, replace?: boolean) => void;
}) {
  // The search box updates the URL after a short pause, not on every key (and replaces the history entry).
  const [text, setText] = useState(query.q);
  const keyboardTip = !isTouchFirst();
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => setText(query.q), [query.q]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the box follows the URL's query only when that changes, not while the coach types
  useEffect(() => {
    if (text.trim() === query.q.trim()) return;
    const timer = setTimeout(() => latest.current({ q: text }, true), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  return (
    // The <search> element is the search landmark. Not role="search" on the form: Pico styles that role as one
    // rounded input group (pill-shaped fields, a focus ring around the whole filter bar, half-rounded button).
    <search className="filters-landmark">
      <form
        className="filters"
        onSubmit={(e) => {
          e.preventDefault();
          onChange({ q: text });
        }}
      >
        <label>
          {t('patient.list.search')}
          <input
            type="search"
            value={text}
            placeholder={t('search.placeholder')}
            aria-describedby={keyboardTip ? 'patient-search-hint' : undefined}
            onInput={(e) => setText((e.target as HTMLInputElement).value)}
          />
        </label>
        <label>
          {t('patient.list.coach')}
          <select value={query.coach} onChange={(e) => onChange({ coach: (e.target as HTMLSelectElement).value })}>
            <option value="">{t('patient.list.allCoaches')}</option>
            {myId && <option value={myId}>{t('patient.list.myPatients')}</option>}
            {coaches
              .filter((c) => c.id !== myId)
              .map((c) => (
                <option key={c.id} value={c.id}>
                  {coachListName(c)}
                </option>
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
              <option key={value} value={value}>
                {t(`patient.list.sortBy.${value.replace('-', 'desc_')}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="size-select">
          {t('patient.list.pageSize')}
          <select value={String(query.size)} onChange={(e) => onChange({ size: Number((e.target as HTMLSelectElement).value) as PageSize })}>
            {PAGE_SIZES.map((size) => (
              <option key={size} value={String(size)}>
                {size}
              </option>
            ))}
          </select>
        </label>
        {(query.q || query.coach || query.status || query.last) && (
          <button
            type="button"
            className="secondary outline filters-reset"
            onClick={() => {
              setText('');
              onChange({ q: '', coach: '', status: '', last: '' });
            }}
          >
            {t('patient.list.resetFilters')}
          </button>
        )}
      </form>
      {keyboardTip && (
        <p id="patient-search-hint" className="muted filters-hint">
          {t('search.hint')}
        </p>
      )}
    </search>
  );
}

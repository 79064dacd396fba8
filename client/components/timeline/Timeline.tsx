import { useState } from 'react';
import type { Patient } from '../../../contract/schemas/patients.ts';
import { DataState } from '../DataState.tsx';
import { useQuery } from '../../data/useQuery.ts';
import { t } from '../../lib/i18n.ts';
import type { HistoryNames } from './history-text.ts';
import { TimelineList } from './TimelineList.tsx';
import { timelineEntries, visibleEntries } from './timeline-entries.ts';
import { TIMELINE_KINDS, loadTimeline, type TimelineKind } from './timeline-load.ts';

/** Rows asked of each list per page; "Ältere Einträge laden" asks for one page more of each. */
export const TIMELINE_PAGE = 25;

interface Props {
  patient: Pick<Patient, 'id' | 'appointments'>;
  /** The API keeps an audit log: recorded changes are part of the timeline. */
  changes: boolean;
  names: HistoryNames;
}

/**
 * "Chronik": everything about the patient in one list, newest first (comments, calls with outcome, length and note,
 * appointments, external notes, access codes, recorded changes), filterable by kind, a page at a time.
 */
export function Timeline({ patient, changes, names }: Props) {
  const [limit, setLimit] = useState(TIMELINE_PAGE);
  const available = TIMELINE_KINDS.filter((kind) => kind !== 'change' || changes);
  // The kinds switched off: a kind that becomes available later (the audit log, once known) starts shown.
  const [hidden, setHidden] = useState<ReadonlySet<TimelineKind>>(new Set());
  const kinds = new Set(available.filter((kind) => !hidden.has(kind)));
  const page = useQuery(
    async (signal) => ({ data: await loadTimeline({ patientId: patient.id, appointments: patient.appointments, limit, changes }, signal) }),
    `${patient.id}:${limit}:${changes}:${patient.appointments.length}`,
  );
  const toggle = (kind: TimelineKind, on: boolean) =>
    setHidden((set) => {
      const next = new Set(set);
      if (on) next.delete(kind);
      else next.add(kind);
      return next;
    });
  const all = page.data ? timelineEntries(page.data.records, names) : [];
  const { shown, more } = page.data ? visibleEntries(all, page.data, kinds) : { shown: [], more: false };

  return (
    <section aria-labelledby="timeline-heading" className="card patient-timeline">
      <h2 id="timeline-heading">{t('timeline.title')}</h2>
      <fieldset className="timeline-filter">
        <legend>{t('timeline.filter')}</legend>
        {available.map((kind) => (
          <label key={kind}>
            <input type="checkbox" checked={kinds.has(kind)} onChange={(e) => toggle(kind, (e.target as HTMLInputElement).checked)} />
            {t(`timeline.kind.${kind}`)}
          </label>
        ))}
      </fieldset>
      {page.data && page.data.failed.length > 0 && (
        <p className="inline-error" role="status">
          {t('timeline.partial', { kinds: page.data.failed.map((kind) => t(`timeline.kind.${kind}`)).join(', ') })}
        </p>
      )}
      <DataState
        status={page.status}
        error={page.error}
        onRetry={page.reload}
        hasData={!!page.data}
        empty={!!page.data && shown.length === 0 && !more}
        emptyText={t(kinds.size === available.length ? 'timeline.empty' : 'timeline.emptyFiltered')}
      >
        <TimelineList entries={shown} />
        {more && (
          <div className="form-actions">
            <button type="button" className="secondary outline" disabled={page.status === 'loading'} onClick={() => setLimit((n) => n + TIMELINE_PAGE)}>
              {t('timeline.loadMore')}
            </button>
            <small className="muted" aria-live="polite">
              {t('timeline.shown', { n: shown.length })}
            </small>
          </div>
        )}
      </DataState>
    </section>
  );
}

import { useState } from 'react';
import { listAuditLog } from '../../../api/audit-log.ts';
import { listCount, listPage } from '../../../data/paging.ts';
import { DataState, listState } from '../../../components/DataState.tsx';
import { formatCount } from '../../../components/list-count.ts';
import { useQuery } from '../../../data/useQuery.ts';
import { formatDate, t } from '../../../lib/i18n.ts';
import { HISTORY_ENTITIES, actorOf, describeEntry } from '../../../components/timeline/history-text.ts';
import { useHistoryNames } from './useHistoryNames.ts';

const PAGE = 50;

/**
 * "Verlauf": who changed the patient's master data, appointments and follow-up, care team, devices, access codes,
 * recovery keys and closing assessment, and when, newest first (GET /audit-log of the patient; only shown where the
 * API has it, see history-support.ts). Codes and keys themselves never appear.
 */
export function PatientHistory({ patientId }: { patientId: string }) {
  const [limit, setLimit] = useState(PAGE);
  const entries = useQuery(
    (signal) =>
      listPage(
        (range) => listAuditLog({ where: { patientId, entity: { inq: [...HISTORY_ENTITIES] } }, order: ['at DESC', 'id DESC'], ...range }, signal),
        limit,
      ),
    `${patientId}:${limit}`,
  );
  const names = useHistoryNames();
  const count = listCount(entries.total, entries.data?.length ?? 0);

  return (
    <section aria-labelledby="history-heading" className="card patient-history">
      <h2 id="history-heading">{t('patient.history.title')}</h2>
      <p className="muted">{t('patient.history.hint')}</p>
      <DataState {...listState(entries, t('patient.history.empty'))}>
        <ol className="history-list">
          {(entries.data ?? []).map((entry) => {
            const { title, lines } = describeEntry(entry, names);
            return (
              <li key={entry.id}>
                <p className="history-meta">
                  <time dateTime={entry.at}>{formatDate(entry.at, { dateStyle: 'medium', timeStyle: 'short' })}</time> · {actorOf(entry)}
                </p>
                <p className="history-title">{title}</p>
                {lines.length > 0 && (
                  <dl className="history-changes">
                    {lines.map((line) => (
                      <div key={line.label}>
                        <dt>{line.label}</dt>
                        <dd>
                          <span className="history-before">{line.before}</span>
                          <span aria-hidden="true"> → </span>
                          <span className="visually-hidden">{t('patient.history.to')}</span>
                          <span className="history-after">{line.after}</span>
                        </dd>
                      </div>
                    ))}
                  </dl>
                )}
              </li>
            );
          })}
        </ol>
        {entries.data && (!count.exact || count.count > entries.data.length) && (
          <div className="form-actions">
            <button type="button" className="secondary outline" disabled={entries.status === 'loading'} onClick={() => setLimit((n) => n + PAGE)}>
              {t('patient.history.loadMore')}
            </button>
            <small className="muted">{t('patient.history.more', { shown: entries.data.length, total: formatCount(count) })}</small>
          </div>
        )}
      </DataState>
    </section>
  );
}

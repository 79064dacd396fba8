import { listSurveys } from '../../../api/surveys.ts';
import { listSyncRecords } from '../../../api/sync-db.ts';
import { eventTitle } from '../../../components/timeline/call-kind.ts';
import type { Survey } from '../../../../contract/schemas/surveys.ts';
import { DataState, listState } from '../../../components/DataState.tsx';
import { useQuery } from '../../../data/useQuery.ts';
import { formatDate, formatNumber, t } from '../../../lib/i18n.ts';
import { readAll } from '../../../data/fetch-all.ts';

/* The patient app's events and survey results, shown on the synced-data tab (SyncedData.tsx). */

export function Events({ patientId }: { patientId: string }) {
  const events = useQuery((s) => listSyncRecords(patientId, 'event', { order: 'date DESC', limit: 30 }, s), patientId);
  return (
    <section className="card" aria-labelledby="events-heading">
      <h3 id="events-heading">{t('patient.data.events')}</h3>
      <DataState {...listState(events, t('patient.data.noEvents'))}>
        <ul className="row-list">
          {(events.data ?? []).map((e) => (
            <li key={e.id}>
              <span>
                <strong>{formatDate(e.data.start, { dateStyle: 'medium', timeStyle: 'short' })}</strong> · {eventTitle(e)}
                <br />
                <small className="muted">
                  {t(`patient.data.eventType.${e.data.type}`)} · {t('patient.appointments.minutes', { n: e.data.durationMinutes })} ·{' '}
                  {e.data.done ? t('patient.data.done') : t('patient.data.planned')}
                </small>
                {e.data.notes && <span className="event-note">{e.data.notes}</span>}
              </span>
            </li>
          ))}
        </ul>
      </DataState>
    </section>
  );
}

export function SurveyResults({ patientId }: { patientId: string }) {
  const results = useQuery(async (s) => {
    const [list, surveys] = await Promise.all([
      listSyncRecords(patientId, 'survey-result', { order: 'date DESC', limit: 20 }, s),
      readAll((range) => listSurveys(range, s), s).then(
        (r) => r.data,
        () => [] as Survey[],
      ),
    ]);
    return { data: { list: list.data, surveys } };
  }, patientId);
  return (
    <section className="card" aria-labelledby="surveys-heading">
      <h3 id="surveys-heading">{t('patient.data.surveys')}</h3>
      <DataState
        status={results.status}
        error={results.error}
        onRetry={results.reload}
        hasData={!!results.data}
        empty={results.data?.list.length === 0}
        emptyText={t('patient.data.noSurveys')}
      >
        <ul className="plain-list survey-results">
          {(results.data?.list ?? []).map((r) => {
            const survey = results.data?.surveys.find((s) => s.id === r.data.surveyId);
            return (
              <li key={r.id}>
                <details>
                  <summary>
                    <strong>{survey?.title ?? t('patient.data.unknownSurvey')}</strong> · {formatDate(r.data.completedAt)}
                  </summary>
                  <div className="table-scroll">
                    <table>
                      <thead>
                        <tr>
                          <th scope="col">{t('patient.data.question')}</th>
                          <th scope="col">{t('patient.data.answer')}</th>
                        </tr>
                      </thead>
                      <tbody>
                        {r.data.answers.map((a) => {
                          const q = survey?.questions.find((x) => x.id === a.questionId);
                          const value =
                            typeof a.value === 'number'
                              ? q?.max !== undefined
                                ? t('patient.data.scaleAnswer', { value: formatNumber(a.value), max: formatNumber(q.max) })
                                : formatNumber(a.value)
                              : a.value;
                          return (
                            <tr key={a.questionId}>
                              <td>{q?.text ?? t('patient.data.unknownQuestion')}</td>
                              <td>{value}</td>
                            </tr>
                          );
                        })}
                      </tbody>
                    </table>
                  </div>
                </details>
              </li>
            );
          })}
        </ul>
      </DataState>
    </section>
  );
}

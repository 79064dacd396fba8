import { listExternalComments } from '../../../api/external-comments.ts';
import { DataState, listState } from '../../../components/DataState.tsx';
import { useQuery } from '../../../data/useQuery.ts';
import { formatDate, t } from '../../../lib/i18n.ts';

const LIMIT = 100;

/** Notes from outside the team (clinic, the patient's app, therapists); read only. */
export function ExternalComments({ patientId }: { patientId: string }) {
  const list = useQuery((signal) => listExternalComments({ where: { patientId }, order: 'createdAt DESC', limit: LIMIT }, signal), patientId);
  return (
    <section aria-labelledby="external-heading" className="card external-comments">
      <h2 id="external-heading">{t('patient.external.title')}</h2>
      <p className="muted">{t('patient.external.hint')}</p>
      <DataState {...listState(list, t('patient.external.empty'))}>
        <ol className="comment-list">
          {(list.data ?? []).map((c) => (
            <li key={c.id} className="comment comment-external">
              <header className="comment-meta">
                <span className={`badge badge-source`}>{t(`patient.external.source.${c.source}`)}</span> <strong>{c.author}</strong>{' '}
                <time dateTime={c.createdAt}>{formatDate(c.createdAt, { dateStyle: 'medium', timeStyle: 'short' })}</time>
              </header>
              <p className="comment-text">{c.text}</p>
            </li>
          ))}
        </ol>
      </DataState>
    </section>
  );
}

import { listComments } from '../../../../api/comments.ts';
import { useQuery } from '../../../../data/useQuery.ts';
import { t } from '../../../../lib/i18n.ts';
import { dateTime } from './comment-drafts.ts';

/**
 * Administrators only: the patient's deleted notes, each with "gelöscht von … am …", the author and the text. Our
 * upstream keeps deleted comments and lists them when the filter names deletedAt; an API that deletes for good
 * answers no such comments (or ignores the condition: only comments that carry deletedAt are shown), and then the
 * section is not shown at all.
 */
export function DeletedComments({ patientId }: { patientId: string }) {
  const deleted = useQuery(
    (signal) => listComments({ where: { patientId, deletedAt: { neq: null } }, order: 'deletedAt DESC', limit: 100 }, signal),
    `deleted:${patientId}`,
  );
  const shown = (deleted.data ?? []).filter((c) => c.deletedAt);
  if (shown.length === 0) return null;
  return (
    <section aria-labelledby="deleted-comments-heading" className="deleted-comments">
      <h3 id="deleted-comments-heading">{t('patient.comments.deletedTitle', { n: shown.length })}</h3>
      <p className="muted">{t('patient.comments.deletedHint')}</p>
      <ol className="comment-list">
        {shown.map((c) => (
          <li key={c.id} className="comment comment-deleted">
            <p className="comment-deleted-by">
              {t('patient.comments.deletedBy', { name: c.deletedByName ?? t('patient.history.unknownCoach'), date: dateTime(c.deletedAt!) })}
            </p>
            <p className="comment-meta">
              <strong>{c.authorName}</strong> <time dateTime={c.createdAt}>{dateTime(c.createdAt)}</time>
            </p>
            <p className="comment-text">{c.text}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

import { useState } from 'react';
import { listComments } from '../../../api/comments.ts';
import { listCount, listPage } from '../../../data/paging.ts';
import type { Comment } from '../../../../contract/schemas/comments.ts';
import { DataState, listState } from '../../../components/DataState.tsx';
import { formatCount } from '../../../components/list-count.ts';
import { useQuery } from '../../../data/useQuery.ts';
import { t } from '../../../lib/i18n.ts';
import { CommentItem } from './comments/CommentItem.tsx';
import { DeletedComments } from './comments/DeletedComments.tsx';
import { NewComment } from './comments/NewComment.tsx';

export { draftKey } from './comments/comment-drafts.ts';
export const COMMENT_PAGE = 50;

/**
 * The coaches' notes on a patient, newest first; each coach may change and delete their own. Where the API keeps
 * them, an edited note shows its earlier versions, and administrators see the deleted notes with who deleted them.
 */
export function Comments({
  patientId,
  userId,
  isAdmin = false,
  history = false,
}: {
  patientId: string;
  userId: string;
  isAdmin?: boolean;
  /** The API has the audit log (history-support.ts). */
  history?: boolean;
}) {
  const [limit, setLimit] = useState(COMMENT_PAGE);
  // A deletion here shows up in the administrators' list of deleted notes.
  const [deletions, setDeletions] = useState(0);
  const comments = useQuery(
    (signal) => listPage((range) => listComments({ where: { patientId }, order: 'createdAt DESC', ...range }, signal), limit),
    `${patientId}:${limit}`,
  );
  const count = listCount(comments.total, comments.data?.length ?? 0);
  const replace = (comment: Comment) => comments.setData((list) => list.map((c) => (c.id === comment.id ? comment : c)));
  return (
    <section aria-labelledby="comments-heading" className="card patient-comments">
      <h2 id="comments-heading">{t('patient.comments.title')}</h2>
      <NewComment coachId={userId} patientId={patientId} onSaved={(c) => comments.setData((list) => [c, ...list])} />
      <DataState {...listState(comments, t('patient.comments.empty'))}>
        <ol className="comment-list">
          {(comments.data ?? []).map((comment) => (
            <CommentItem
              key={comment.id}
              coachId={userId}
              comment={comment}
              own={comment.authorId === userId}
              history={history}
              onChanged={replace}
              onDeleted={() => {
                comments.setData((list) => list.filter((c) => c.id !== comment.id));
                setDeletions((n) => n + 1);
              }}
            />
          ))}
        </ol>
        {comments.data && (!count.exact || count.count > comments.data.length) && (
          <div className="form-actions">
            <button type="button" className="secondary outline" disabled={comments.status === 'loading'} onClick={() => setLimit((n) => n + COMMENT_PAGE)}>
              {t('patient.comments.loadMore')}
            </button>
            <small className="muted">{t('patient.comments.more', { shown: comments.data.length, total: formatCount(count) })}</small>
          </div>
        )}
      </DataState>
      {isAdmin && <DeletedComments key={deletions} patientId={patientId} />}
    </section>
  );
}

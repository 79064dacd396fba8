import { useState } from 'react';
import { createComment, deleteComment, listComments, updateComment } from '../../../api/comments.ts';
import { listCount, listPage } from '../../../api/paging.ts';
import { CommentSchema, type Comment } from '../../../api/schemas/comments.ts';
import { ConflictNotice } from '../../../components/ConflictNotice.tsx';
import { DataState } from '../../../components/DataState.tsx';
import { ConflictError, useVersionedSave } from '../../../components/useVersionedSave.ts';
import { Dialog } from '../../../components/Dialog.tsx';
import { errorText } from '../../../components/errorText.ts';
import { formatCount } from '../../../components/list-count.ts';
import { useDraft } from '../../../components/useDraft.ts';
import { useResource } from '../../../components/useResource.ts';
import { formatDate, t } from '../../../lib/i18n.ts';
import { draftStorageKey } from '../../../lib/drafts.ts';

export const COMMENT_PAGE = 50;
/**
 * localStorage key of one coach's draft of a new comment on one patient (or of an edit of one comment). Per coach:
 * a colleague at the same browser never sees it; the session's end removes it (client/lib/drafts.ts).
 */
export const draftKey = (coachId: string, patientId: string, commentId?: string) =>
  draftStorageKey(coachId, patientId, commentId ? `comment:${encodeURIComponent(commentId)}` : 'comment');

const dateTime = (value: string) => formatDate(value, { dateStyle: 'medium', timeStyle: 'short' });

/** The coaches' notes on a patient, newest first; each coach may change and delete their own. */
export function Comments({ patientId, userId }: { patientId: string; userId: string }) {
  const [limit, setLimit] = useState(COMMENT_PAGE);
  const comments = useResource(
    (signal) => listPage((range) => listComments({ where: { patientId }, order: 'createdAt DESC', ...range }, signal), limit),
    `${patientId}:${limit}`,
  );
  const count = listCount(comments.total, comments.data?.length ?? 0);
  const replace = (comment: Comment) => comments.setData((list) => list.map((c) => (c.id === comment.id ? comment : c)));
  return (
    <section aria-labelledby="comments-heading" className="card patient-comments">
      <h2 id="comments-heading">{t('patient.comments.title')}</h2>
      <NewComment coachId={userId} patientId={patientId} onSaved={(c) => comments.setData((list) => [c, ...list])} />
      <DataState
        status={comments.status}
        error={comments.error}
        onRetry={comments.reload}
        empty={comments.data?.length === 0}
        emptyText={t('patient.comments.empty')}
        hasData={!!comments.data}
      >
        <ol className="comment-list">
          {(comments.data ?? []).map((comment) => (
            <CommentItem
              key={comment.id}
              coachId={userId}
              comment={comment}
              own={comment.authorId === userId}
              onChanged={replace}
              onDeleted={() => comments.setData((list) => list.filter((c) => c.id !== comment.id))}
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
    </section>
  );
}

/**
 * The box for a new comment. The text lives in localStorage from the first keystroke and is removed only
 * after the server confirmed the save; a failed save leaves the text in place and offers a retry.
 */
function NewComment({ coachId, patientId, onSaved }: { coachId: string; patientId: string; onSaved: (comment: Comment) => void }) {
  const [text, setText, clear] = useDraft(draftKey(coachId, patientId));
  const [restored, setRestored] = useState(() => text.trim() !== '');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function save() {
    if (!text.trim() || saving) return;
    setSaving(true);
    setError(null);
    try {
      const { data } = await createComment({ patientId, text: text.trim() });
      clear();
      setRestored(false);
      onSaved(data);
    } catch (e) {
      setError(e);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form
      className="comment-new"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label htmlFor={`comment-new-${patientId}`}>{t('patient.comments.newLabel')}</label>
      <textarea
        id={`comment-new-${patientId}`}
        rows={4}
        value={text}
        readOnly={saving}
        aria-describedby={restored ? `comment-restored-${patientId}` : undefined}
        onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void save();
          }
        }}
      />
      {restored && text && (
        <small id={`comment-restored-${patientId}`} className="muted">
          {t('patient.comments.restored')}
        </small>
      )}
      {error !== null && (
        <div role="alert" className="inline-error">
          <p>
            {t('patient.comments.saveFailed')} {errorText(error)}
          </p>
          <button type="button" className="secondary" onClick={() => void save()}>
            {t('dataState.retry')}
          </button>
        </div>
      )}
      <div className="form-actions">
        <button type="submit" disabled={!text.trim() || saving} aria-busy={saving}>
          {saving ? t('patient.comments.saving') : t('patient.comments.save')}
        </button>
        <small className="muted">{t('patient.comments.shortcut')}</small>
      </div>
    </form>
  );
}

const sameText = (a: Comment, b: Comment) => a.text === b.text;

function CommentItem({ coachId, comment, own, onChanged, onDeleted }: {
  coachId: string;
  comment: Comment;
  own: boolean;
  onChanged: (comment: Comment) => void;
  onDeleted: () => void;
}) {
  const key = draftKey(coachId, comment.patientId, comment.id);
  const [draft, setDraft, clearDraft] = useDraft(key);
  // An edit that was left unsaved (reload, failed save) reopens with its text.
  const [editing, setEditing] = useState(() => draft !== '');
  const [busy, setBusy] = useState<'saving' | 'deleting' | null>(null);
  const [error, setError] = useState<{ kind: 'save' | 'delete'; cause: unknown } | null>(null);
  const [confirming, setConfirming] = useState(false);
  // Edits and deletions name the version on screen (If-Match): a colleague's or an administrator's change in
  // between is shown, never silently overwritten or deleted.
  const versioned = useVersionedSave(CommentSchema, sameText);
  const [etag, setEtag] = useState<string | null>(null);
  const [conflictKind, setConflictKind] = useState<'save' | 'delete'>('save');

  async function save() {
    if (!draft.trim() || busy) return;
    setBusy('saving');
    setError(null);
    try {
      const result = await versioned.save(comment, (ifMatch) => updateComment(comment.id, { text: draft.trim() }, ifMatch), etag);
      setEtag(result.etag ?? null);
      clearDraft();
      setEditing(false);
      onChanged(result.data);
    } catch (cause) {
      if (cause instanceof ConflictError) setConflictKind('save');
      else setError({ kind: 'save', cause });
    } finally {
      setBusy(null);
    }
  }

  async function remove() {
    setConfirming(false);
    setBusy('deleting');
    setError(null);
    try {
      await versioned.save(comment, (ifMatch) => deleteComment(comment.id, ifMatch), etag);
      clearDraft();
      onDeleted();
    } catch (cause) {
      if (cause instanceof ConflictError) setConflictKind('delete');
      else setError({ kind: 'delete', cause });
      setBusy(null);
    }
  }

  const conflict = versioned.conflict;
  /** Shows the other version in the list; the typed edit stays in its box. */
  const takeTheirs = () => {
    if (!conflict) return;
    onChanged(conflict.current);
    setEtag(conflict.tag);
    versioned.dismiss();
    if (conflictKind === 'save') {
      clearDraft();
      setEditing(false);
    }
  };

  const edited = comment.updatedAt !== comment.createdAt;
  return (
    <li className="comment">
      <header className="comment-meta">
        <strong>{comment.authorName}</strong>{' '}
        <time dateTime={comment.createdAt}>{dateTime(comment.createdAt)}</time>
        {edited && <span className="muted"> · {t('patient.comments.edited', { date: dateTime(comment.updatedAt) })}</span>}
      </header>
      {editing ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <label htmlFor={`comment-edit-${comment.id}`} className="visually-hidden">
            {t('patient.comments.editLabel')}
          </label>
          <textarea
            id={`comment-edit-${comment.id}`}
            rows={4}
            value={draft}
            readOnly={busy === 'saving'}
            onInput={(e) => setDraft((e.target as HTMLTextAreaElement).value)}
          />
          <div className="form-actions">
            <button type="submit" disabled={!draft.trim() || busy !== null} aria-busy={busy === 'saving'}>
              {busy === 'saving' ? t('patient.comments.saving') : t('patient.comments.saveEdit')}
            </button>
            <button
              type="button"
              className="secondary outline"
              disabled={busy !== null}
              onClick={() => {
                clearDraft();
                setEditing(false);
                setError(null);
                versioned.dismiss();
              }}
            >
              {t('patient.comments.cancel')}
            </button>
          </div>
        </form>
      ) : (
        <p className="comment-text">{comment.text}</p>
      )}
      {conflict && (
        <ConflictNotice
          changes={[{ label: t('patient.comments.editLabel'), theirs: conflict.current.text }]}
          keepLabel={conflictKind === 'delete' ? t('conflict.deleteAnyway') : undefined}
          busy={busy !== null}
          onKeepMine={() => void (conflictKind === 'delete' ? remove() : save())}
          onTakeTheirs={takeTheirs}
        />
      )}
      {error !== null && (
        <div role="alert" className="inline-error">
          <p>
            {error.kind === 'delete' ? t('patient.comments.deleteFailed') : t('patient.comments.saveFailed')} {errorText(error.cause)}
          </p>
          {error.kind === 'save' && editing && (
            <button type="button" className="secondary" onClick={() => void save()}>
              {t('dataState.retry')}
            </button>
          )}
        </div>
      )}
      {own && !editing && (
        <div className="comment-actions">
          <button
            type="button"
            className="secondary outline"
            onClick={() => {
              setDraft(comment.text);
              setEditing(true);
            }}
          >
            {t('patient.comments.edit')}
          </button>
          <button type="button" className="secondary outline" disabled={busy !== null} onClick={() => setConfirming(true)}>
            {t('patient.comments.delete')}
          </button>
        </div>
      )}
      <Dialog
        open={confirming}
        title={t('patient.comments.deleteTitle')}
        onClose={() => setConfirming(false)}
        type="warning"
        actions={
          <>
            <button type="button" className="secondary" onClick={() => setConfirming(false)}>
              {t('patient.comments.cancel')}
            </button>
            <button type="button" onClick={() => void remove()}>
              {t('patient.comments.deleteConfirm')}
            </button>
          </>
        }
      >
        <p>{t('patient.comments.deleteText')}</p>
      </Dialog>
    </li>
  );
}

import { useState } from 'react';
import { deleteComment, updateComment } from '../../../../api/comments.ts';
import { CommentSchema, type Comment } from '../../../../../contract/schemas/comments.ts';
import { ConflictNotice } from '../../../../components/ConflictNotice.tsx';
import { useMutation } from '../../../../data/useMutation.ts';
import { ConflictError, exceptConflicts, useForm } from '../../../../data/useForm.ts';
import { Dialog } from '../../../../components/Dialog.tsx';
import { saveFailureText } from '../../../../components/errorText.ts';
import { t } from '../../../../lib/i18n.ts';
import { CommentVersions } from './CommentVersions.tsx';
import { dateTime, draftKey } from './comment-drafts.ts';

const sameText = (a: Comment, b: Comment) => a.text === b.text;
type Kind = 'save' | 'delete';

interface CommentItemProps {
  coachId: string;
  comment: Comment;
  own: boolean;
  /** The API keeps earlier versions (the audit log): an edited note offers them. */
  history: boolean;
  onChanged: (comment: Comment) => void;
  onDeleted: () => void;
}

/**
 * A note's edit and delete: its draft, the request that runs (its button shows the spinner, its failure names it),
 * and the version conflict, with the kind of request that met it.
 */
function useCommentActions({ coachId, comment, onChanged, onDeleted }: CommentItemProps) {
  const key = draftKey(coachId, comment.patientId, comment.id);
  // Edits and deletions name the version on screen (If-Match): a colleague's or an administrator's change in
  // between is shown, never silently overwritten or deleted.
  const form = useForm<string, typeof CommentSchema>({ draft: key, pristine: comment.text, schema: CommentSchema, sameForForm: sameText });
  const draft = form.value ?? '';
  // An edit that was left unsaved (reload, failed save) reopens with its text.
  const [editing, setEditing] = useState(() => draft !== '');
  const [confirming, setConfirming] = useState(false);
  const [etag, setEtag] = useState<string | null>(null);
  // Which request runs or ran last (its button shows the spinner, its failure names it), and which one met a conflict.
  const [started, setStarted] = useState<Kind>('save');
  const [conflictKind, setConflictKind] = useState<Kind>('save');
  const action = useMutation(exceptConflicts);
  const busy = action.busy ? started : null;
  const error = action.error === null ? null : { kind: started, cause: action.error };
  const write = <R,>(kind: Kind, request: (ifMatch: string | null) => Promise<R>) => {
    setStarted(kind);
    return form.save(comment, request, etag).catch((failure: unknown) => {
      if (failure instanceof ConflictError) setConflictKind(kind);
      throw failure;
    });
  };

  async function save() {
    if (!draft.trim()) return;
    await action.run(async () => {
      const result = await write('save', (ifMatch) => updateComment(comment.id, { text: draft.trim() }, ifMatch));
      setEtag(result.etag ?? null);
      setEditing(false);
      onChanged(result.data);
    });
  }

  async function remove() {
    setConfirming(false);
    await action.run(async () => {
      await write('delete', (ifMatch) => deleteComment(comment.id, ifMatch));
      onDeleted();
    });
  }

  const conflict = form.conflict;
  /** Shows the other version in the list; the typed edit stays in its box. */
  const takeTheirs = () => {
    if (!conflict) return;
    onChanged(conflict.current);
    setEtag(conflict.tag);
    form.dismissConflict();
    if (conflictKind === 'save') {
      form.discard();
      setEditing(false);
    }
  };

  const cancel = () => {
    form.discard();
    setEditing(false);
    action.clear();
  };
  const edit = () => {
    form.keep(comment.text);
    setEditing(true);
  };
  return { form, draft, editing, cancel, edit, confirming, setConfirming, busy, error, conflict, conflictKind, save, remove, takeTheirs };
}

/** One note: its text, who wrote it when, and for its author editing and deleting; earlier versions where the API keeps them. */
export function CommentItem(props: CommentItemProps) {
  const { comment, own, history } = props;
  const { form, draft, editing, cancel, edit, confirming, setConfirming, busy, error, conflict, conflictKind, save, remove, takeTheirs } =
    useCommentActions(props);
  // An API that keeps no updatedAt (LoopBack models often do not) reads it as "": then nothing says "edited".
  const edited = !!comment.updatedAt && !!comment.createdAt && comment.updatedAt !== comment.createdAt;
  return (
    <li className="comment">
      <header className="comment-meta">
        <strong>{comment.authorName}</strong> <time dateTime={comment.createdAt}>{dateTime(comment.createdAt)}</time>
        {edited && <span className="muted"> · {t('patient.comments.edited', { date: dateTime(comment.updatedAt) })}</span>}
      </header>
      {edited && history && !editing && <CommentVersions comment={comment} />}
      {editing ? (
        <CommentEditForm id={comment.id} draft={draft} busy={busy} onKeep={form.keep} onSave={() => void save()} onCancel={cancel} />
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
          <p>{saveFailureText(error.kind === 'delete' ? t('patient.comments.deleteFailed') : t('patient.comments.saveFailed'), error.cause)}</p>
          {error.kind === 'save' && editing && (
            <button type="button" className="secondary" onClick={() => void save()}>
              {t('dataState.retry')}
            </button>
          )}
        </div>
      )}
      {own && !editing && (
        <div className="comment-actions">
          <button type="button" className="secondary outline" onClick={edit}>
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

/** The text box of a note being edited, with save and cancel. */
function CommentEditForm(props: { id: string; draft: string; busy: Kind | null; onKeep: (text: string) => void; onSave: () => void; onCancel: () => void }) {
  const { id, draft, busy } = props;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        props.onSave();
      }}
    >
      <label htmlFor={`comment-edit-${id}`} className="visually-hidden">
        {t('patient.comments.editLabel')}
      </label>
      <textarea
        id={`comment-edit-${id}`}
        rows={4}
        value={draft}
        readOnly={busy === 'save'}
        onInput={(e) => props.onKeep((e.target as HTMLTextAreaElement).value)}
      />
      <div className="form-actions">
        <button type="submit" disabled={!draft.trim() || busy !== null} aria-busy={busy === 'save'}>
          {busy === 'save' ? t('patient.comments.saving') : t('patient.comments.saveEdit')}
        </button>
        <button type="button" className="secondary outline" disabled={busy !== null} onClick={props.onCancel}>
          {t('patient.comments.cancel')}
        </button>
      </div>
    </form>
  );
}

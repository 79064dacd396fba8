import { useState } from 'react';
import { createComment } from '../../../../api/comments.ts';
import type { Comment } from '../../../../../contract/schemas/comments.ts';
import { saveFailureText } from '../../../../components/errorText.ts';
import { useMutation } from '../../../../data/useMutation.ts';
import { useForm } from '../../../../data/useForm.ts';
import { t } from '../../../../lib/i18n.ts';
import { draftKey } from './comment-drafts.ts';

/**
 * The box for a new comment. The text lives in localStorage from the first keystroke and is removed only
 * after the server confirmed the save; a failed save leaves the text in place and offers a retry.
 */
export function NewComment({ coachId, patientId, onSaved }: { coachId: string; patientId: string; onSaved: (comment: Comment) => void }) {
  const form = useForm<string>({ draft: draftKey(coachId, patientId) });
  const text = form.value ?? '';
  const [restored, setRestored] = useState(() => text.trim() !== '');
  const { busy: saving, error, run } = useMutation();

  async function save() {
    if (!text.trim()) return;
    await run(async () => {
      const { data } = await form.save(null, () => createComment({ patientId, text: text.trim() }));
      setRestored(false);
      onSaved(data);
    });
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
        onInput={(e) => form.keep((e.target as HTMLTextAreaElement).value)}
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
          <p>{saveFailureText(t('patient.comments.saveFailed'), error)}</p>
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

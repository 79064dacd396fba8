import { useEffect, useState } from 'react';
import { getEvaluationForm, saveEvaluationForm } from '../../../api/patients.ts';
import {
  EvaluationFormSchema,
  emptyEvaluationForm,
  type EvaluationForm as Evaluation,
  type EvaluationFormUpdate,
} from '../../../../contract/schemas/patients.ts';
import { ConflictNotice, changedFields } from '../../../components/ConflictNotice.tsx';
import { DataState } from '../../../components/DataState.tsx';
import { saveFailureText } from '../../../components/errorText.ts';
import { useMutation } from '../../../data/useMutation.ts';
import { exceptConflicts, useForm } from '../../../data/useForm.ts';
import { useQuery } from '../../../data/useQuery.ts';
import { formatDate, t } from '../../../lib/i18n.ts';
import { draftStorageKey } from '../../../lib/drafts.ts';

const WORK = ['able', 'limited', 'unable', 'not-applicable'] as const;

function toForm(e: Evaluation): EvaluationFormUpdate {
  return {
    goalAttainment: e.goalAttainment,
    workAbility: e.workAbility,
    returnToWorkDate: e.returnToWorkDate,
    followUpRecommended: e.followUpRecommended,
    summary: e.summary,
  };
}

const sameForm = (a: Evaluation, b: Evaluation) => JSON.stringify(toForm(a)) === JSON.stringify(toForm(b));
const FIELDS = ['goalAttainment', 'workAbility', 'returnToWorkDate', 'followUpRecommended', 'summary'] as const;
const readable =
  (key: (typeof FIELDS)[number]) =>
  (e: Evaluation): string => {
    const value = e[key];
    if (value === null || value === '') return '';
    if (key === 'workAbility') return t(`patient.evaluation.work.${value}`);
    if (key === 'followUpRecommended') return value ? t('conflict.yes') : t('conflict.no');
    return String(value);
  };

/** What an assessment draft keeps: the entries and the version they were made on (If-Match after a reload). */
interface EvaluationDraft {
  form: EvaluationFormUpdate;
  base: Evaluation;
  etag: string | null;
}

/** The assessment as loaded, what the coach entered (a draft until saved), and its versioned save. */
function useEvaluation(patientId: string, coachId: string) {
  const loaded = useQuery(async (signal) => {
    const result = await getEvaluationForm(patientId, signal);
    return { ...result, data: result.data ?? emptyEvaluationForm(patientId) };
  }, patientId);
  const editor = useForm<EvaluationDraft, typeof EvaluationFormSchema>({
    draft: coachId ? draftStorageKey(coachId, patientId, 'evaluation') : null,
    schema: EvaluationFormSchema,
    sameForForm: sameForm,
  });
  const restored = editor.restored;
  const [form, setForm] = useState<EvaluationFormUpdate | null>(restored?.form ?? null);
  // The version the entries were made on: the restored draft's, else what was loaded (and then saved).
  const [restoredBase, setRestoredBase] = useState<Evaluation | null>(restored?.base ?? null);
  const { busy: saving, error, run } = useMutation(exceptConflicts);
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const [etag, setEtag] = useState<string | null>(restored?.etag ?? null);
  const [restoredNote, setRestoredNote] = useState(restored !== null);
  const base = restoredBase ?? loaded.data ?? null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: fills the form once, when the record arrives; later edits must not be overwritten
  useEffect(() => {
    if (loaded.data && form === null) setForm(toForm(loaded.data));
  }, [loaded.data]);
  const change = (next: EvaluationFormUpdate) => {
    setForm(next);
    setSavedAt(null);
    if (!base || JSON.stringify(next) === JSON.stringify(toForm(base))) editor.clearDraft();
    else editor.keep({ form: next, base, etag });
  };

  async function save(e?: Event) {
    e?.preventDefault();
    if (!form || !base) return;
    await run(async () => {
      const result = await editor.save(base, (ifMatch) => saveEvaluationForm(patientId, { ...form, summary: form.summary ?? '' }, ifMatch), etag);
      editor.clearDraft();
      setRestoredBase(null);
      setRestoredNote(false);
      loaded.setData(() => result.data);
      setEtag(result.etag ?? null);
      setSavedAt(result.data.updatedAt);
    });
  }
  const conflict = editor.conflict;

  /** The colleague's version replaces what was entered. */
  function takeTheirs() {
    if (!conflict) return;
    loaded.setData(() => conflict.current);
    setRestoredBase(null);
    setRestoredNote(false);
    editor.clearDraft();
    setForm(toForm(conflict.current));
    setEtag(conflict.tag);
    editor.dismissConflict();
  }
  return { loaded, form, change, save, takeTheirs, base, conflict, saving, error, savedAt, restoredNote };
}

/**
 * The closing assessment of the aftercare. A failed save keeps everything as entered; a save names the version it
 * was based on, so a colleague's save in between is shown instead of overwritten. The entries are a draft of this
 * coach and patient until the server confirms them: switching tabs, a reload or a failed save loses nothing.
 */
export function EvaluationForm({ patientId, coachId }: { patientId: string; coachId: string }) {
  const { loaded, form, change, save, takeTheirs, base, conflict, saving, error, savedAt, restoredNote } = useEvaluation(patientId, coachId);

  const meta = loaded.data;
  return (
    <section aria-labelledby="evaluation-heading" className="card evaluation-form">
      <h2 id="evaluation-heading">{t('patient.evaluation.title')}</h2>
      <DataState status={loaded.status} error={loaded.error} onRetry={loaded.reload} hasData={!!form}>
        {form && (
          <form onSubmit={save}>
            {restoredNote && (
              <p role="status" className="notice">
                {t('unsaved.restored')}
              </p>
            )}
            <EvaluationFields form={form} change={change} />
            {error !== null && (
              <p role="alert" className="inline-error">
                {saveFailureText(t('patient.evaluation.saveFailed'), error)}
              </p>
            )}
            {conflict && base && (
              <ConflictNotice
                changes={changedFields(
                  base,
                  conflict.current,
                  FIELDS.map((key) => ({ label: t(`patient.evaluation.${key === 'followUpRecommended' ? 'followUp' : key}`), text: readable(key) })),
                )}
                busy={saving}
                onTakeTheirs={takeTheirs}
              />
            )}
            {savedAt && error === null && (
              <p role="status" className="notice">
                {t('patient.evaluation.saved')}
              </p>
            )}
            <div className="form-actions">
              <button type="submit" disabled={saving} aria-busy={saving}>
                {saving ? t('patient.form.saving') : t('patient.evaluation.save')}
              </button>
              {meta?.updatedAt && (
                <small className="muted">
                  {t('patient.evaluation.lastSaved', { date: formatDate(meta.updatedAt, { dateStyle: 'medium', timeStyle: 'short' }) })}
                </small>
              )}
            </div>
          </form>
        )}
      </DataState>
    </section>
  );
}

/** The assessment's fields: goal attainment, work ability, return to work, follow-up, summary. */
function EvaluationFields({ form, change }: { form: EvaluationFormUpdate; change: (next: EvaluationFormUpdate) => void }) {
  return (
    <>
      <fieldset className="scale-choice">
        <legend>{t('patient.evaluation.goalAttainment')}</legend>
        {[1, 2, 3, 4, 5].map((n) => (
          <label key={n}>
            <input type="radio" name="goalAttainment" checked={form.goalAttainment === n} onChange={() => change({ ...form, goalAttainment: n })} />
            {n} <small className="muted">{t(`patient.evaluation.goal${n}`)}</small>
          </label>
        ))}
        <label>
          <input type="radio" name="goalAttainment" checked={form.goalAttainment === null} onChange={() => change({ ...form, goalAttainment: null })} />
          {t('patient.evaluation.open')}
        </label>
      </fieldset>
      <div className="grid-form">
        <label>
          {t('patient.evaluation.workAbility')}
          <select
            value={form.workAbility ?? ''}
            onChange={(e) => {
              const value = (e.target as HTMLSelectElement).value;
              change({ ...form, workAbility: value ? (value as (typeof WORK)[number]) : null });
            }}
          >
            <option value="">{t('patient.evaluation.open')}</option>
            {WORK.map((w) => (
              <option key={w} value={w}>
                {t(`patient.evaluation.work.${w}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('patient.evaluation.returnToWorkDate')}
          <input
            type="date"
            value={form.returnToWorkDate ?? ''}
            onInput={(e) => change({ ...form, returnToWorkDate: (e.target as HTMLInputElement).value || null })}
          />
        </label>
      </div>
      <label className="checkbox-line">
        <input
          type="checkbox"
          checked={form.followUpRecommended}
          onChange={(e) => change({ ...form, followUpRecommended: (e.target as HTMLInputElement).checked })}
        />
        {t('patient.evaluation.followUp')}
      </label>
      <label>
        {t('patient.evaluation.summary')}
        <textarea rows={6} value={form.summary ?? ''} onInput={(e) => change({ ...form, summary: (e.target as HTMLTextAreaElement).value })} />
      </label>
    </>
  );
}

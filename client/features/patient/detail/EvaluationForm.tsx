import { useEffect, useState } from 'react';
import { getEvaluationForm, saveEvaluationForm } from '../../../api/patients.ts';
import { EvaluationFormSchema, type EvaluationForm as Evaluation, type EvaluationFormUpdate } from '../../../api/schemas/patients.ts';
import { ConflictNotice, changedFields } from '../../../components/ConflictNotice.tsx';
import { DataState } from '../../../components/DataState.tsx';
import { errorText } from '../../../components/errorText.ts';
import { ConflictError, useVersionedSave } from '../../../components/useVersionedSave.ts';
import { useResource } from '../../../components/useResource.ts';
import { formatDate, t } from '../../../lib/i18n.ts';

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
const readable = (key: (typeof FIELDS)[number]) => (e: Evaluation): string => {
  const value = e[key];
  if (value === null || value === '') return '';
  if (key === 'workAbility') return t(`patient.evaluation.work.${value}`);
  if (key === 'followUpRecommended') return value ? t('conflict.yes') : t('conflict.no');
  return String(value);
};

/**
 * The closing assessment of the aftercare. A failed save keeps everything as entered; a save names the version it
 * was based on, so a colleague's save in between is shown instead of overwritten.
 */
export function EvaluationForm({ patientId }: { patientId: string }) {
  const loaded = useResource((signal) => getEvaluationForm(patientId, signal), patientId);
  const [form, setForm] = useState<EvaluationFormUpdate | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const [etag, setEtag] = useState<string | null>(null);
  const versioned = useVersionedSave(EvaluationFormSchema, sameForm);
  useEffect(() => {
    if (loaded.data && form === null) setForm(toForm(loaded.data));
  }, [loaded.data]);

  async function save(e?: Event) {
    e?.preventDefault();
    if (!form || !loaded.data) return;
    setSaving(true);
    setError(null);
    try {
      const result = await versioned.save(loaded.data, (ifMatch) => saveEvaluationForm(patientId, { ...form, summary: form.summary ?? '' }, ifMatch), etag);
      loaded.setData(() => result.data);
      setEtag(result.etag ?? null);
      setSavedAt(result.data.updatedAt);
    } catch (err) {
      if (!(err instanceof ConflictError)) setError(err);
    } finally {
      setSaving(false);
    }
  }
  const conflict = versioned.conflict;

  const meta = loaded.data;
  return (
    <section aria-labelledby="evaluation-heading" className="card evaluation-form">
      <h2 id="evaluation-heading">{t('patient.evaluation.title')}</h2>
      <DataState status={loaded.status} error={loaded.error} onRetry={loaded.reload} hasData={!!form}>
        {form && (
          <form onSubmit={save}>
            <fieldset className="scale-choice">
              <legend>{t('patient.evaluation.goalAttainment')}</legend>
              {[1, 2, 3, 4, 5].map((n) => (
                <label key={n}>
                  <input type="radio" name="goalAttainment" checked={form.goalAttainment === n} onChange={() => setForm({ ...form, goalAttainment: n })} />
                  {n} <small className="muted">{t(`patient.evaluation.goal${n}`)}</small>
                </label>
              ))}
              <label>
                <input type="radio" name="goalAttainment" checked={form.goalAttainment === null} onChange={() => setForm({ ...form, goalAttainment: null })} />
                {t('patient.evaluation.open')}
              </label>
            </fieldset>
            <div className="grid-form">
              <label>
                {t('patient.evaluation.workAbility')}
                <select value={form.workAbility ?? ''} onChange={(e) => {
                  const value = (e.target as HTMLSelectElement).value;
                  setForm({ ...form, workAbility: value ? (value as (typeof WORK)[number]) : null });
                }}>
                  <option value="">{t('patient.evaluation.open')}</option>
                  {WORK.map((w) => <option key={w} value={w}>{t(`patient.evaluation.work.${w}`)}</option>)}
                </select>
              </label>
              <label>
                {t('patient.evaluation.returnToWorkDate')}
                <input type="date" value={form.returnToWorkDate ?? ''} onInput={(e) => setForm({ ...form, returnToWorkDate: (e.target as HTMLInputElement).value || null })} />
              </label>
            </div>
            <label className="checkbox-line">
              <input type="checkbox" checked={form.followUpRecommended} onChange={(e) => setForm({ ...form, followUpRecommended: (e.target as HTMLInputElement).checked })} />
              {t('patient.evaluation.followUp')}
            </label>
            <label>
              {t('patient.evaluation.summary')}
              <textarea rows={6} value={form.summary ?? ''} onInput={(e) => setForm({ ...form, summary: (e.target as HTMLTextAreaElement).value })} />
            </label>
            {error !== null && <p role="alert" className="inline-error">{t('patient.evaluation.saveFailed')} {errorText(error)}</p>}
            {conflict && loaded.data && (
              <ConflictNotice
                changes={changedFields(loaded.data, conflict.current, FIELDS.map((key) => ({ label: t(`patient.evaluation.${key === 'followUpRecommended' ? 'followUp' : key}`), text: readable(key) })))}
                busy={saving}
                onTakeTheirs={() => {
                  loaded.setData(() => conflict.current);
                  setForm(toForm(conflict.current));
                  setEtag(conflict.tag);
                  versioned.dismiss();
                }}
              />
            )}
            {savedAt && error === null && <p role="status" className="notice">{t('patient.evaluation.saved')}</p>}
            <div className="form-actions">
              <button type="submit" disabled={saving} aria-busy={saving}>{saving ? t('patient.form.saving') : t('patient.evaluation.save')}</button>
              {meta?.updatedAt && (
                <small className="muted">{t('patient.evaluation.lastSaved', { date: formatDate(meta.updatedAt, { dateStyle: 'medium', timeStyle: 'short' }) })}</small>
              )}
            </div>
          </form>
        )}
      </DataState>
    </section>
  );
}

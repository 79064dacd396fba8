import { useState } from 'react';
import { Link } from 'wouter';
import type { Patient } from '../../../api/schemas/patients.ts';
import { isoDay } from '../../../components/AftercareBadge.tsx';
import { FreshnessBadge } from '../../../components/FreshnessBadge.tsx';
import { errorText } from '../../../components/errorText.ts';
import { useDraft } from '../../../components/useDraft.ts';
import { draftStorageKey } from '../../../lib/drafts.ts';
import { formatDate, t } from '../../../lib/i18n.ts';
import { patientName } from '../../../lib/names.ts';
import { FollowUpNotKept, recordCall, setFollowUp, type CallOutcome } from './calls.ts';

const DEFAULT_MINUTES = '15';

interface Props {
  patient: Patient;
  coachId: string;
  now: Date;
  /** A call or a follow-up day was stored: the message for the list, and whether the row leaves it. */
  onDone: (message: string, leaves: boolean) => void;
}

/**
 * One patient of "Brauchen Aufmerksamkeit" as a worklist row: call them, then one click records the call as
 * "erreicht" or "nicht erreicht". "Notiz und Wiedervorlage" adds a note (a draft until stored) and the call's length,
 * and a follow-up day that takes the patient off the list until then, with the call or on its own.
 */
export function WorklistRow({ patient, coachId, now, onDone }: Props) {
  const name = patientName(patient);
  const [note, setNote, clearNote] = useDraft(draftStorageKey(coachId, patient.id, 'call-note'));
  const [open, setOpen] = useState(note !== '');
  const [minutes, setMinutes] = useState(DEFAULT_MINUTES);
  const [followUp, setFollowUpDay] = useState('');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  const tomorrow = isoDay(new Date(now.getTime() + 86_400_000));

  const checkFollowUp = () => {
    if (followUp && followUp < tomorrow) {
      setError(t('dashboard.worklist.followUpPast'));
      return false;
    }
    return true;
  };
  const keepFollowUp = async () => {
    try {
      await setFollowUp(patient.id, followUp);
      return true;
    } catch (cause) {
      setError(cause instanceof FollowUpNotKept ? t('dashboard.worklist.followUpNotKept') : `${t('dashboard.worklist.followUpFailed')} ${errorText(cause)}`);
      return false;
    }
  };

  async function call(outcome: CallOutcome) {
    const length = Number(minutes);
    if (outcome === 'reached' && (!Number.isInteger(length) || length < 1 || length > 240)) return setError(t('dashboard.worklist.minutesRange'));
    if (!checkFollowUp()) return;
    setBusy(true);
    setError('');
    try {
      const at = new Date();
      await recordCall({ patientId: patient.id, coachId, outcome, note, minutes: length, now: at });
      clearNote();
      const recorded = t('dashboard.worklist.recorded', { outcome: t(`dashboard.worklist.outcome.${outcome}`), time: formatDate(at, { timeStyle: 'short' }) });
      if (followUp && (await keepFollowUp())) {
        onDone(`${name}: ${recorded} ${t('dashboard.worklist.followUpSet', { date: formatDate(followUp) })}`, true);
        return;
      }
      setStatus(recorded);
    } catch (cause) {
      setError(`${t('dashboard.worklist.failed')} ${errorText(cause)}`);
    } finally {
      setBusy(false);
    }
  }

  async function followUpOnly() {
    if (!followUp || !checkFollowUp()) return;
    setBusy(true);
    setError('');
    if (await keepFollowUp()) onDone(`${name}: ${t('dashboard.worklist.followUpSet', { date: formatDate(followUp) })}`, true);
    setBusy(false);
  }

  const id = `worklist-${patient.id}`;
  return (
    <li className="worklist-row">
      <div className="worklist-head">
        <span>
          <Link href={`/patient/${encodeURIComponent(patient.id)}`}>{name}</Link>{' '}
          <small className="muted">
            <code>{patient.patientCode}</code>
          </small>
        </span>
        <span className="row-actions">
          <FreshnessBadge lastDataAt={patient.lastDataAt} now={now} />
          {patient.phone && (
            <a
              href={`tel:${patient.phone.replace(/[^\d+]/g, '')}`}
              className="call-link"
              aria-label={t('dashboard.attention.callNamed', { name, phone: patient.phone })}
            >
              {t('dashboard.attention.call')}
            </a>
          )}
        </span>
      </div>
      {/* A fieldset, not role="group": Pico draws every [role=group] as one joined, full-width button bar. */}
      <fieldset className="worklist-actions">
        <legend className="visually-hidden">{t('dashboard.worklist.recordFor', { name })}</legend>
        <span className="worklist-label" aria-hidden="true">
          {t('dashboard.worklist.record')}
        </span>
        <button type="button" className="secondary small" disabled={busy} onClick={() => void call('reached')}>
          {t('dashboard.worklist.reached')}
        </button>
        <button type="button" className="secondary outline small" disabled={busy} onClick={() => void call('notReached')}>
          {t('dashboard.worklist.notReached')}
        </button>
      </fieldset>
      <details className="worklist-details" open={open} onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
        <summary>{t('dashboard.worklist.details')}</summary>
        <label htmlFor={`${id}-note`}>{t('dashboard.worklist.note')}</label>
        <textarea id={`${id}-note`} rows={2} value={note} readOnly={busy} onInput={(e) => setNote((e.target as HTMLTextAreaElement).value)} />
        <div className="worklist-fields">
          <label htmlFor={`${id}-minutes`}>
            {t('dashboard.worklist.minutes')}
            <input id={`${id}-minutes`} type="number" min={1} max={240} value={minutes} onInput={(e) => setMinutes((e.target as HTMLInputElement).value)} />
          </label>
          <label htmlFor={`${id}-follow-up`}>
            {t('dashboard.worklist.followUp')}
            <input
              id={`${id}-follow-up`}
              type="date"
              min={tomorrow}
              value={followUp}
              aria-describedby={`${id}-follow-up-hint`}
              onInput={(e) => setFollowUpDay((e.target as HTMLInputElement).value)}
            />
          </label>
        </div>
        <small id={`${id}-follow-up-hint`} className="muted">
          {t('dashboard.worklist.followUpHint', {
            attention: t('dashboard.attention.title'),
            reached: t('dashboard.worklist.reached'),
            notReached: t('dashboard.worklist.notReached'),
          })}
        </small>
        <button type="button" className="secondary outline small" disabled={busy || !followUp} onClick={() => void followUpOnly()}>
          {t('dashboard.worklist.followUpSave')}
        </button>
      </details>
      {status && (
        <p role="status" className="worklist-status">
          {status}
        </p>
      )}
      {error && (
        <p role="alert" className="inline-error">
          {error}
        </p>
      )}
    </li>
  );
}

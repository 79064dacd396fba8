import { useState } from 'react';
import { Link } from 'wouter';
import type { Patient } from '../../../api/schemas/patients.ts';
import { isoDay } from '../../../components/AftercareBadge.tsx';
import { FreshnessBadge } from '../../../components/FreshnessBadge.tsx';
import { errorText } from '../../../components/errorText.ts';
import { useAction } from '../../../components/useAction.ts';
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

/** The call was recorded, but its follow-up day could not be set (the row says so and stays). */
class FollowUpNotSet extends Error {
  readonly reason: unknown;
  constructor(reason: unknown) {
    super('The follow-up day was not set');
    this.reason = reason;
  }
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
  const [status, setStatus] = useState('');
  const { busy, error, run, fail } = useAction((cause) =>
    cause instanceof FollowUpNotKept
      ? t('dashboard.worklist.followUpNotKept')
      : cause instanceof FollowUpNotSet
        ? `${t('dashboard.worklist.followUpFailed')} ${errorText(cause.reason)}`
        : `${t('dashboard.worklist.failed')} ${errorText(cause)}`,
  );
  const tomorrow = isoDay(new Date(now.getTime() + 86_400_000));

  /** A follow-up day must lie ahead; false (and the message shown) when it does not. */
  const followUpAhead = () => {
    if (followUp && followUp < tomorrow) {
      fail(t('dashboard.worklist.followUpPast'));
      return false;
    }
    return true;
  };
  const keepFollowUp = () =>
    setFollowUp(patient.id, followUp).catch((cause: unknown) => {
      throw cause instanceof FollowUpNotKept ? cause : new FollowUpNotSet(cause);
    });

  async function call(outcome: CallOutcome) {
    const length = Number(minutes);
    if (outcome === 'reached' && (!Number.isInteger(length) || length < 1 || length > 240)) return fail(t('dashboard.worklist.minutesRange'));
    if (!followUpAhead()) return;
    await run(async () => {
      const at = new Date();
      await recordCall({ patientId: patient.id, coachId, outcome, note, minutes: length, now: at });
      clearNote();
      // Shown in the row; a follow-up day that is then set takes the row off the list with both messages.
      const recorded = t('dashboard.worklist.recorded', { outcome: t(`dashboard.worklist.outcome.${outcome}`), time: formatDate(at, { timeStyle: 'short' }) });
      setStatus(recorded);
      if (!followUp) return;
      await keepFollowUp();
      onDone(`${name}: ${recorded} ${t('dashboard.worklist.followUpSet', { date: formatDate(followUp) })}`, true);
    });
  }

  async function followUpOnly() {
    if (!followUp || !followUpAhead()) return;
    await run(async () => {
      await keepFollowUp();
      onDone(`${name}: ${t('dashboard.worklist.followUpSet', { date: formatDate(followUp) })}`, true);
    });
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

import { useState } from 'react';
import { Link } from 'wouter';
import type { Patient } from '../../../../contract/schemas/patients.ts';
import { isoDay } from '../../../components/AftercareBadge.tsx';
import { BirthDate } from '../../../components/BirthDate.tsx';
import { FreshnessBadge } from '../../../components/FreshnessBadge.tsx';
import { errorText } from '../../../components/errorText.ts';
import { useMutation } from '../../../data/useMutation.ts';
import { useForm } from '../../../data/useForm.ts';
import { draftStorageKey } from '../../../lib/drafts.ts';
import { formatDate, t } from '../../../lib/i18n.ts';
import { patientName } from '../../../lib/names.ts';
import { FollowUpNotKept, callId, parseMinutes, setFollowUp, type CallOutcome } from './calls.ts';
import { useCallRecorder, type RecordedCall } from './useCallRecorder.ts';

interface Props {
  patient: Patient;
  coachId: string;
  now: Date;
  /** A follow-up day was set on its own: the message for the list, and the row leaves it. */
  onDone: (message: string) => void;
}

/**
 * One patient of "Brauchen Aufmerksamkeit" as a worklist row: call them, write the note and the length while
 * talking, then "Erreicht" or "Nicht erreicht" records the call (with a follow-up day, when one is given). A recorded
 * row says when, offers "Rückgängig" for a few seconds, and no second record; a call that could not be sent stays
 * beside the row until it is.
 */
export function WorklistRow({ patient, coachId, now, onDone }: Props) {
  const name = patientName(patient);
  const noteForm = useForm<string>({ draft: draftStorageKey(coachId, patient.id, 'call-note') });
  const note = noteForm.value ?? '';
  const setNote = noteForm.keep;
  const clearNote = noteForm.discard;
  const [minutes, setMinutes] = useState('');
  const [followUp, setFollowUpDay] = useState('');
  const calls = useCallRecorder({ patientId: patient.id, coachId, previousFollowUp: patient.followUpAt ?? null, note, clearNote, restoreNote: setNote });
  const alone = useMutation((cause) =>
    cause instanceof FollowUpNotKept ? t('dashboard.worklist.followUpNotKept') : `${t('dashboard.worklist.followUpFailed')} ${errorText(cause)}`,
  );
  const tomorrow = isoDay(new Date(now.getTime() + 86_400_000));
  const busy = calls.busy || alone.busy;

  /** A follow-up day must lie ahead; false (and the message shown) when it does not. */
  const followUpAhead = () => {
    if (followUp && followUp < tomorrow) {
      calls.fail(t('dashboard.worklist.followUpPast'));
      return false;
    }
    return true;
  };

  function record(outcome: CallOutcome) {
    const length = outcome === 'reached' ? parseMinutes(minutes) : null;
    if (Number.isNaN(length)) return calls.fail(t('dashboard.worklist.minutesRange'));
    if (!followUpAhead()) return;
    const at = new Date();
    void calls.start({ call: { id: callId(at), outcome, at: at.toISOString(), minutes: length }, followUp });
  }

  async function followUpOnly() {
    if (!followUp || !followUpAhead()) return;
    await alone.run(async () => {
      await setFollowUp(patient.id, followUp);
      onDone(`${name}: ${t('dashboard.worklist.followUpSet', { date: formatDate(followUp) })}`);
    });
  }

  const id = `worklist-${patient.id}`;
  // While a call waits to be sent its note stays open (it goes with the call), but no second call is offered.
  const open = !calls.recorded && !calls.pending;
  const error = calls.error ?? alone.error ?? (calls.pending && !busy ? t('dashboard.worklist.pending') : null);
  return (
    <li className="worklist-row">
      <RowHead patient={patient} now={now} />
      {calls.recorded && <Recorded recorded={calls.recorded} undoable={calls.undoable} busy={busy} onUndo={() => void calls.undo()} />}
      {/* A fieldset, not role="group": Pico draws every [role=group] as one joined, full-width button bar. */}
      <fieldset className="worklist-form" disabled={busy}>
        <legend className="visually-hidden">{t('dashboard.worklist.recordFor', { name })}</legend>
        {!calls.recorded && (
          <>
            <label htmlFor={`${id}-note`}>{t('dashboard.worklist.note')}</label>
            <textarea id={`${id}-note`} rows={2} value={note} onInput={(e) => setNote((e.target as HTMLTextAreaElement).value)} />
          </>
        )}
        <div className="worklist-fields">
          {open && <MinutesField id={`${id}-minutes`} value={minutes} onChange={setMinutes} />}
          <FollowUpField id={`${id}-follow-up`} min={tomorrow} value={followUp} onChange={setFollowUpDay} />
        </div>
        <div className="worklist-actions">
          {open && (
            <>
              <button type="button" onClick={() => record('reached')}>
                {t('dashboard.worklist.reached')}
              </button>
              <button type="button" className="secondary" onClick={() => record('notReached')}>
                {t('dashboard.worklist.notReached')}
              </button>
            </>
          )}
          <button type="button" className="secondary outline" disabled={!followUp} onClick={() => void followUpOnly()}>
            {t('dashboard.worklist.followUpSave')}
          </button>
        </div>
      </fieldset>
      {error && <RowError error={error} busy={busy} onRetry={calls.pending ? () => void calls.retry() : null} />}
    </li>
  );
}

function RowHead({ patient, now }: { patient: Patient; now: Date }) {
  const name = patientName(patient);
  return (
    <div className="worklist-head">
      <span>
        <Link href={`/patient/${encodeURIComponent(patient.id)}`}>{name}</Link> <BirthDate birthDate={patient.birthDate} now={now} />{' '}
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
  );
}

/** "Anruf erfasst um 09:12 (erreicht)", with "Rückgängig" while it may still be taken back. */
function Recorded({ recorded, undoable, busy, onUndo }: { recorded: RecordedCall; undoable: boolean; busy: boolean; onUndo: () => void }) {
  const time = formatDate(recorded.call.at, { timeStyle: 'short' });
  return (
    <div className="worklist-recorded">
      <p role="status" className="worklist-status">
        {t('dashboard.worklist.recorded', { time })} ({t(`dashboard.worklist.outcome.${recorded.call.outcome}`)})
        {recorded.followUpKept && ` ${t('dashboard.worklist.followUpSet', { date: formatDate(recorded.followUpKept) })}`}
      </p>
      {undoable && (
        <button type="button" className="secondary outline" disabled={busy} onClick={onUndo}>
          {t('dashboard.worklist.undo')}
        </button>
      )}
    </div>
  );
}

function MinutesField({ id, value, onChange }: { id: string; value: string; onChange: (value: string) => void }) {
  return (
    <label htmlFor={id}>
      {t('dashboard.worklist.minutes')}
      <input id={id} type="number" inputMode="numeric" min={1} max={240} value={value} onInput={(e) => onChange((e.target as HTMLInputElement).value)} />
    </label>
  );
}

/** The follow-up day, with what it does (the hint follows the grid of fields, under both). */
function FollowUpField({ id, min, value, onChange }: { id: string; min: string; value: string; onChange: (value: string) => void }) {
  return (
    <>
      <label htmlFor={id}>
        {t('dashboard.worklist.followUp')}
        <input id={id} type="date" min={min} value={value} aria-describedby={`${id}-hint`} onInput={(e) => onChange((e.target as HTMLInputElement).value)} />
      </label>
      <small id={`${id}-hint`} className="muted worklist-hint">
        {t('dashboard.worklist.followUpHint', {
          attention: t('dashboard.attention.title'),
          reached: t('dashboard.worklist.reached'),
          notReached: t('dashboard.worklist.notReached'),
        })}
      </small>
    </>
  );
}

/** A failure beside the row; "Erneut versuchen" while a call waits to be sent. */
function RowError({ error, busy, onRetry }: { error: string; busy: boolean; onRetry: (() => void) | null }) {
  return (
    <div role="alert" className="inline-error worklist-error">
      <p>{error}</p>
      {onRetry && (
        <button type="button" className="secondary" disabled={busy} onClick={onRetry}>
          {t('dataState.retry')}
        </button>
      )}
    </div>
  );
}

import { useRef, useState } from 'react';
import { saveAppointments } from '../../../api/patients.ts';
import type { Appointment, Patient } from '../../../../contract/schemas/patients.ts';
import { ConflictNotice } from '../../../components/ConflictNotice.tsx';
import { saveFailureText } from '../../../components/errorText.ts';
import { useMutation } from '../../../data/useMutation.ts';
import { exceptConflicts, useForm } from '../../../data/useForm.ts';
import { formatDate, t } from '../../../lib/i18n.ts';
import { draftStorageKey } from '../../../lib/drafts.ts';
import { appointmentTime } from '../../../lib/identity.ts';
import {
  type AppointmentsDraft,
  describe,
  empty,
  type FormState,
  newId,
  PatientAppointmentsSchema,
  sameList,
  toLocalInput,
  TYPES,
  type Versioned,
} from './appointments-form.ts';

/**
 * The appointment list and the form beside it, kept as one draft: until the server confirms a save the changed list
 * stays on screen and is marked unsaved, with what is being typed in the form.
 */
function useAppointments(patient: Patient, coachId: string, onSaved: (list: Appointment[]) => void) {
  const editor = useForm<AppointmentsDraft, typeof PatientAppointmentsSchema>({
    draft: coachId ? draftStorageKey(coachId, patient.id, 'appointments') : null,
    schema: PatientAppointmentsSchema,
    sameForForm: sameList,
  });
  const restored = editor.restored;
  const [list, setList] = useState<Appointment[]>(restored?.pending?.list ?? patient.appointments);
  const [form, setFormState] = useState<FormState>(() => restored?.form ?? empty());
  const mutation = useMutation(exceptConflicts);
  const [unsavedRestored, setUnsavedRestored] = useState(!!restored?.pending);
  const [formRestored] = useState(!!restored?.form && !restored.pending);
  // The list as last stored, and the patient's version it belongs to (the ETag of the last save, else updatedAt).
  const [base, setBase] = useState<{ list: Versioned; etag: string | null }>(() =>
    restored?.pending
      ? { list: restored.pending.base, etag: restored.pending.etag }
      : { list: { appointments: patient.appointments, updatedAt: patient.updatedAt }, etag: null },
  );
  const kept = useRef<AppointmentsDraft>({ form: restored?.form ?? null, pending: restored?.pending ?? null });
  const keep = (change: Partial<AppointmentsDraft>) => {
    kept.current = { ...kept.current, ...change };
    if (kept.current.form === null && kept.current.pending === null) editor.clearDraft();
    else editor.keep(kept.current);
  };
  const setForm = (next: FormState) => {
    setFormState(next);
    keep({ form: JSON.stringify(next) === JSON.stringify(empty()) ? null : next });
  };

  async function persist(next: Appointment[]) {
    await mutation.run(async () => {
      setList(next);
      setUnsavedRestored(false);
      keep({ pending: { list: next, base: base.list, etag: base.etag } });
      const result = await editor.save(base.list, (ifMatch) => saveAppointments(patient.id, next, ifMatch), base.etag);
      keep({ pending: null });
      setBase({ list: { appointments: result.data, updatedAt: null }, etag: result.etag ?? null });
      setList(result.data);
      onSaved(result.data);
    });
  }

  /** The other person's list replaces this one; what the form holds stays. */
  function takeTheirs(current: Versioned, tag: string | null) {
    keep({ pending: null });
    setBase({ list: current, etag: tag });
    setList(current.appointments);
    onSaved(current.appointments);
    editor.dismissConflict();
  }

  return { list, form, setForm, persist, takeTheirs, conflict: editor.conflict, mutation, unsavedRestored, formRestored };
}

/**
 * Planned contacts. The whole list is saved at once (PUT); until the server confirms, the changed list
 * stays on screen and is marked unsaved, and it is kept as a draft with what is being typed, so nothing is
 * lost when a save fails, on a reload or when the coach leaves the tab.
 */
export function Appointments({ patient, coachId, onSaved }: { patient: Patient; coachId: string; onSaved: (list: Appointment[]) => void }) {
  const { list, form, setForm, persist, takeTheirs, conflict, mutation, unsavedRestored, formRestored } = useAppointments(patient, coachId, onSaved);
  const { busy: saving, error } = mutation;
  const [formError, setFormError] = useState('');
  const now = Date.now();

  function add(e: Event) {
    e.preventDefault();
    const minutes = Number(form.durationMinutes);
    if (!form.startsAt || Number.isNaN(Date.parse(form.startsAt))) return setFormError(t('patient.appointments.startRequired'));
    if (!Number.isInteger(minutes) || minutes < 5 || minutes > 480) return setFormError(t('patient.appointments.durationRange'));
    setFormError('');
    const item: Appointment = {
      id: form.id || newId(),
      startsAt: new Date(form.startsAt).toISOString(),
      durationMinutes: minutes,
      type: form.type,
      note: form.note.trim(),
    };
    const next = form.id ? list.map((a) => (a.id === form.id ? item : a)) : [...list, item];
    next.sort((a, b) => a.startsAt.localeCompare(b.startsAt));
    setForm(empty());
    void persist(next);
  }

  const upcoming = list.filter((a) => Date.parse(a.startsAt) >= now - 3600_000);
  const past = list.filter((a) => Date.parse(a.startsAt) < now - 3600_000).reverse();
  const row = (a: Appointment) => (
    <AppointmentRow key={a.id} appointment={a} saving={saving} onEdit={setForm} onRemove={() => void persist(list.filter((x) => x.id !== a.id))} />
  );

  return (
    <section aria-labelledby="appointments-heading" className="card">
      <h2 id="appointments-heading">{t('patient.appointments.title')}</h2>
      {conflict && (
        <ConflictNotice
          changes={[{ label: t('patient.appointments.title'), theirs: describe(conflict.current.appointments) }]}
          busy={saving}
          onKeepMine={() => void persist(list)}
          onTakeTheirs={() => takeTheirs(conflict.current, conflict.tag)}
        />
      )}
      {unsavedRestored && (
        <div role="status" className="notice">
          <p>{t('patient.appointments.unsavedRestored')}</p>
          <button type="button" className="secondary" disabled={saving} onClick={() => void persist(list)}>
            {t('patient.appointments.saveNow')}
          </button>
        </div>
      )}
      {error !== null && (
        <div role="alert" className="inline-error">
          <p>{saveFailureText(t('patient.appointments.saveFailed'), error)}</p>
          <button type="button" className="secondary" onClick={() => void persist(list)}>
            {t('dataState.retry')}
          </button>
        </div>
      )}
      <h3>{t('patient.appointments.upcoming')}</h3>
      {upcoming.length === 0 ? <p className="muted">{t('patient.appointments.noneUpcoming')}</p> : <ul className="row-list">{upcoming.map(row)}</ul>}
      <AppointmentForm form={form} setForm={setForm} restored={formRestored} error={formError} saving={saving} onSubmit={add} />
      {past.length > 0 && (
        <details>
          <summary>{t('patient.appointments.past', { n: past.length })}</summary>
          <ul className="row-list">{past.map(row)}</ul>
        </details>
      )}
    </section>
  );
}

interface RowProps {
  appointment: Appointment;
  saving: boolean;
  onEdit: (form: FormState) => void;
  onRemove: () => void;
}

function AppointmentRow({ appointment: a, saving, onEdit, onRemove }: RowProps) {
  return (
    <li>
      <span>
        <strong>{appointmentTime(a.startsAt)}</strong>
        {' · '}
        {t(`patient.appointments.type.${a.type}`)} · {t('patient.appointments.minutes', { n: a.durationMinutes })}
        {a.note && (
          <>
            <br />
            <span className="muted">{a.note}</span>
          </>
        )}
      </span>
      <span className="row-actions">
        <button
          type="button"
          className="secondary outline small"
          disabled={saving}
          onClick={() => onEdit({ id: a.id, startsAt: toLocalInput(a.startsAt), durationMinutes: String(a.durationMinutes), type: a.type, note: a.note })}
        >
          {t('patient.appointments.edit')}
        </button>
        <button
          type="button"
          className="secondary outline small"
          disabled={saving}
          aria-label={t('patient.appointments.removeNamed', { date: formatDate(a.startsAt, { dateStyle: 'medium', timeStyle: 'short' }) })}
          onClick={onRemove}
        >
          {t('patient.appointments.remove')}
        </button>
      </span>
    </li>
  );
}

interface FormProps {
  form: FormState;
  setForm: (form: FormState) => void;
  /** The form opened with a draft from an earlier visit. */
  restored: boolean;
  error: string;
  saving: boolean;
  onSubmit: (event: Event) => void;
}

/** Adding an appointment, or changing the one whose "Bearbeiten" was pressed. */
function AppointmentForm({ form, setForm, restored, error, saving, onSubmit }: FormProps) {
  return (
    <form className="appointment-form" onSubmit={onSubmit}>
      {restored && form.note + form.startsAt !== '' && (
        <p role="status" className="notice">
          {t('unsaved.restored')}
        </p>
      )}
      <fieldset className="grid-form">
        <legend>{form.id ? t('patient.appointments.editTitle') : t('patient.appointments.add')}</legend>
        <label>
          {t('patient.appointments.startsAt')}
          <input type="datetime-local" value={form.startsAt} onInput={(e) => setForm({ ...form, startsAt: (e.target as HTMLInputElement).value })} />
        </label>
        <label>
          {t('patient.appointments.duration')}
          <input
            type="number"
            min={5}
            max={480}
            step={5}
            value={form.durationMinutes}
            onInput={(e) => setForm({ ...form, durationMinutes: (e.target as HTMLInputElement).value })}
          />
        </label>
        <label>
          {t('patient.appointments.typeLabel')}
          <select value={form.type} onChange={(e) => setForm({ ...form, type: (e.target as HTMLSelectElement).value as Appointment['type'] })}>
            {TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`patient.appointments.type.${type}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('patient.appointments.note')}
          <input type="text" maxLength={2000} value={form.note} onInput={(e) => setForm({ ...form, note: (e.target as HTMLInputElement).value })} />
        </label>
      </fieldset>
      {error && (
        <p role="alert" className="inline-error">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" disabled={saving} aria-busy={saving}>
          {form.id ? t('patient.appointments.saveEdit') : t('patient.appointments.addButton')}
        </button>
        {form.id && (
          <button type="button" className="secondary outline" onClick={() => setForm(empty())}>
            {t('patient.comments.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}

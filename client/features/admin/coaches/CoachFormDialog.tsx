import { useState } from 'react';
import { createCoach, updateCoach, resetCoachPassword } from '../../../api/coaches.ts';
import { CoachSchema, type Coach } from '../../../../contract/schemas/coaches.ts';
import { ConflictNotice, changedFields } from '../../../components/ConflictNotice.tsx';
import { useMutation } from '../../../data/useMutation.ts';
import { exceptConflicts, useForm } from '../../../data/useForm.ts';
import { t } from '../../../lib/i18n.ts';
import { CheckboxField, SelectField, TextField } from '../fields.tsx';
import { FormDialog } from '../FormDialog.tsx';
import { invalidFields, saveErrorText } from '../form-errors.ts';
import { EMPTY_COACH, coachDraftKey, coachFormErrors, coachToForm, toCreateBody, toPatchBody, type CoachDraft, type CoachFormValues } from './coach-form.ts';
import { user } from '../../../state/session.ts';
import { coachName } from '../../../lib/names.ts';
import { passwordRefusal, refusalText } from '../../../lib/password-rules.ts';
import { mayActOn } from '../../../domain/permissions.ts';

interface Props {
  /** The coach to edit; absent = create a new one. */
  coach?: Coach;
  onSaved: (coach: Coach, message: string) => void;
  onClose: () => void;
}

const sameForm = (a: Coach, b: Coach) => JSON.stringify(coachToForm(a)) === JSON.stringify(coachToForm(b));
const FIELDS = ['firstName', 'lastName', 'email', 'title', 'phone', 'language', 'isAdmin', 'isHealthManager'] as const;
const LABELS: Record<(typeof FIELDS)[number], string> = {
  firstName: 'admin.coach.firstName',
  lastName: 'admin.coach.lastName',
  email: 'admin.coach.email',
  title: 'admin.coach.jobTitle',
  phone: 'admin.coach.phone',
  language: 'admin.coach.language',
  isAdmin: 'admin.coach.isAdmin',
  isHealthManager: 'admin.coach.isHealthManager',
};
const readable =
  (key: (typeof FIELDS)[number]) =>
  (c: Coach): string => {
    const value = c[key];
    if (typeof value === 'boolean') return value ? t('conflict.yes') : t('conflict.no');
    if (key === 'language') return t(`admin.language.${value}`);
    return String(value ?? '');
  };

/** What the form holds (a draft of this administrator and coach, never the password) and the version it edits. */
function useCoachDraft(coach: Coach | undefined) {
  const editor = useForm<CoachDraft, typeof CoachSchema>({ draft: coachDraftKey(user.value?.id, coach?.id), schema: CoachSchema, sameForForm: sameForm });
  const restored = editor.restored;
  const [base, setBase] = useState<Coach | undefined>(() => restored?.base ?? coach ?? undefined);
  const pristine = () => (coach ? coachToForm(coach) : EMPTY_COACH);
  const [values, setFormValues] = useState<CoachFormValues>(() => (restored ? { ...EMPTY_COACH, ...restored.values } : pristine()));
  const [restoredNote, setRestoredNote] = useState(restored !== null);
  const setValues = (update: (v: CoachFormValues) => CoachFormValues) => {
    const next = update(values);
    setFormValues(next);
    const { password: _secret, ...kept } = next;
    const { password: _none, ...start } = pristine();
    if (JSON.stringify(kept) === JSON.stringify(start)) editor.clearDraft();
    else editor.keep({ values: kept, base: base ?? null });
  };
  const discard = () => {
    editor.clearDraft();
    setRestoredNote(false);
    setBase(coach);
    setFormValues(pristine());
  };
  return { editor, base, setBase, values, setValues, setFormValues, restoredNote, discard };
}

/**
 * Create or edit a coach. A failed save keeps everything typed and marks what the server refused; an edit names the
 * version it started from, so another administrator's save in between is shown, not overwritten. What is typed
 * (except a password) is a draft of this administrator and coach until the server confirms it: closing the dialog,
 * a reload or a failed save keeps it, and the screen reopens the form with it.
 */
export function CoachFormDialog({ coach, onSaved, onClose }: Props) {
  const creating = !coach;
  const { editor, base, setBase, values, setValues, setFormValues, restoredNote, discard } = useCoachDraft(coach);
  const [checked, setChecked] = useState(false);
  const save = useMutation(exceptConflicts);
  const serverInvalid = invalidFields(save.error);
  const errors = checked ? coachFormErrors(values, creating) : {};
  const set =
    <K extends keyof CoachFormValues>(key: K) =>
    (value: CoachFormValues[K]) =>
      setValues((v) => ({ ...v, [key]: value }));
  // A refused start password (too common, names the coach) is said at its field while it is unchanged.
  const [refusedPassword, setRefusedPassword] = useState<string | null>(null);
  const refusal = passwordRefusal(save.error);
  const refused = refusal && values.password === refusedPassword ? t(refusalText(refusal, 'accounts.admin.passwordPersonal')) : null;
  const message = (key: keyof CoachFormValues) =>
    errors[key] ? t(errors[key]!) : key === 'password' && refused ? refused : serverInvalid.has(key) ? t('admin.checkValue') : null;

  const submit = async () => {
    setChecked(true);
    if (Object.keys(coachFormErrors(values, creating)).length > 0) return;
    await save.run(async () => {
      if (coach && base) {
        const { data } = await editor.save(base, (ifMatch) => updateCoach(coach.id, toPatchBody(values, base), ifMatch));
        onSaved(data, savedText(data, base));
        return;
      }
      const { data, note } = await createWithInvite(values, () => setRefusedPassword(values.password));
      editor.clearDraft();
      onSaved(data, note);
    });
  };
  const conflict = editor.conflict;

  return (
    <FormDialog
      title={creating ? t('admin.coach.createTitle') : t('admin.coach.editTitle')}
      submitLabel={creating ? t('admin.coach.create') : t('admin.save')}
      busy={save.busy}
      error={save.error === null ? null : saveErrorText(save.error)}
      onSubmit={submit}
      onClose={onClose}
    >
      {restoredNote && (
        <div role="status" className="admin-restored">
          <p>{t('unsaved.restored')}</p>
          <button type="button" className="secondary outline" onClick={discard}>
            {t('unsaved.discard')}
          </button>
        </div>
      )}
      <CoachFields values={values} set={set} message={message} coach={coach ?? undefined} />
      {conflict && base && (
        <ConflictNotice
          changes={changedFields(
            base,
            conflict.current,
            FIELDS.map((key) => ({ label: t(LABELS[key]), text: readable(key) })),
          )}
          busy={save.busy}
          onTakeTheirs={() => {
            editor.clearDraft();
            setBase(conflict.current);
            setFormValues(coachToForm(conflict.current));
            editor.dismissConflict();
          }}
        />
      )}
      {creating && (
        <>
          <TextField
            label={t('admin.coach.password')}
            type="password"
            autoComplete="new-password"
            value={values.password}
            onValue={set('password')}
            error={message('password')}
            hint={t('admin.coach.passwordHint')}
          />
          {!values.password && <CheckboxField label={t('admin.coach.sendInvite')} checked={values.sendInvite} onValue={set('sendInvite')} />}
        </>
      )}
    </FormDialog>
  );
}

/**
 * Creates the coach; without a start password, sends the link to set one. The account exists either way: a failed
 * invitation is said in the note, not treated as a failed save. `onRefused` hears of a refused start password.
 */
async function createWithInvite(values: CoachFormValues, onRefused: () => void): Promise<{ data: Coach; note: string }> {
  const { data } = await createCoach(toCreateBody(values)).catch((failure: unknown) => {
    if (passwordRefusal(failure)) onRefused();
    throw failure;
  });
  let note = t('admin.coach.created', { name: coachName(data) });
  if (!values.password && values.sendInvite) {
    try {
      await resetCoachPassword(data.id);
      note = `${note} ${t('admin.coach.inviteSent', { email: data.email })}`;
    } catch {
      note = `${note} ${t('admin.coach.inviteFailed')}`;
    }
  }
  return { data, note };
}

interface FieldsProps {
  values: CoachFormValues;
  set: <K extends keyof CoachFormValues>(key: K) => (value: CoachFormValues[K]) => void;
  message: (key: keyof CoachFormValues) => string | null;
  coach?: Coach;
}

/** Name, contact, language and roles; the admin role only where the signed-in administrator may change it. */
function CoachFields({ values, set, message, coach }: FieldsProps) {
  return (
    <>
      <div className="grid">
        <TextField label={t('admin.coach.firstName')} value={values.firstName} onValue={set('firstName')} required error={message('firstName')} />
        <TextField label={t('admin.coach.lastName')} value={values.lastName} onValue={set('lastName')} required error={message('lastName')} />
      </div>
      <TextField label={t('admin.coach.email')} type="email" value={values.email} onValue={set('email')} required error={message('email')} />
      <div className="grid">
        <TextField label={t('admin.coach.jobTitle')} value={values.title} onValue={set('title')} error={message('title')} />
        <TextField label={t('admin.coach.phone')} type="tel" value={values.phone} onValue={set('phone')} error={message('phone')} />
      </div>
      <SelectField
        label={t('admin.coach.language')}
        value={values.language}
        onValue={(v) => set('language')(v as CoachFormValues['language'])}
        options={(['de', 'en', 'fr'] as const).map((lang) => ({ value: lang, label: t(`admin.language.${lang}`) }))}
      />
      <fieldset>
        <legend>{t('admin.coach.roles')}</legend>
        <CheckboxField
          label={t('admin.coach.isAdmin')}
          checked={values.isAdmin}
          onValue={set('isAdmin')}
          disabled={coach && !mayActOn('changeAdminRole', coach)}
          hint={coach && !mayActOn('changeAdminRole', coach) ? t('accounts.admin.selfAdminRole') : undefined}
        />
        <CheckboxField label={t('admin.coach.isHealthManager')} checked={values.isHealthManager} onValue={set('isHealthManager')} />
      </fieldset>
    </>
  );
}

/** What the list says after an edit; a new address is only waiting for its link (pendingEmail) until it is opened. */
function savedText(saved: Coach, before: Coach): string {
  const pending = saved.pendingEmail && saved.pendingEmail !== before.pendingEmail ? saved.pendingEmail : null;
  return pending ? t('accounts.admin.savedPendingEmail', { name: coachName(saved), email: pending }) : t('admin.coach.saved', { name: coachName(saved) });
}

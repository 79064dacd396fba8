import { useState } from 'react';
import { createCoach, replaceCoach, resetCoachPassword } from '../../../api/coaches.ts';
import type { Coach } from '../../../api/schemas/coaches.ts';
import { t } from '../../../lib/i18n.ts';
import { CheckboxField, SelectField, TextField } from '../fields.tsx';
import { FormDialog } from '../FormDialog.tsx';
import { invalidFields, saveErrorText } from '../form-errors.ts';
import { EMPTY_COACH, coachFormErrors, coachToForm, toCreateBody, toUpdateBody, type CoachFormValues } from './coach-form.ts';
import { coachName } from '../../../lib/names.ts';

interface Props {
  /** The coach to edit; absent = create a new one. */
  coach?: Coach;
  onSaved: (coach: Coach, message: string) => void;
  onClose: () => void;
}

/** Create or edit a coach. A failed save keeps everything typed and marks what the server refused. */
export function CoachFormDialog({ coach, onSaved, onClose }: Props) {
  const creating = !coach;
  const [values, setValues] = useState<CoachFormValues>(() => (coach ? coachToForm(coach) : EMPTY_COACH));
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [serverInvalid, setServerInvalid] = useState<Set<string>>(new Set());
  const errors = checked ? coachFormErrors(values, creating) : {};
  const set = <K extends keyof CoachFormValues>(key: K) => (value: CoachFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  const message = (key: keyof CoachFormValues) => (errors[key] ? t(errors[key]!) : serverInvalid.has(key) ? t('admin.checkValue') : null);

  const submit = async () => {
    setChecked(true);
    if (Object.keys(coachFormErrors(values, creating)).length > 0) return;
    setBusy(true);
    setError(null);
    try {
      if (coach) {
        const { data } = await replaceCoach(coach.id, toUpdateBody(values, coach));
        onSaved(data, t('admin.coach.saved', { name: coachName(data) }));
        return;
      }
      const { data } = await createCoach(toCreateBody(values));
      let note = t('admin.coach.created', { name: coachName(data) });
      if (!values.password && values.sendInvite) {
        // The account exists either way; a failed invitation is reported, not treated as a failed save.
        try {
          await resetCoachPassword(data.id);
          note = `${note} ${t('admin.coach.inviteSent', { email: data.email })}`;
        } catch {
          note = `${note} ${t('admin.coach.inviteFailed')}`;
        }
      }
      onSaved(data, note);
    } catch (failure) {
      setServerInvalid(invalidFields(failure));
      setError(saveErrorText(failure));
      setBusy(false);
    }
  };

  return (
    <FormDialog
      title={creating ? t('admin.coach.createTitle') : t('admin.coach.editTitle')}
      submitLabel={creating ? t('admin.coach.create') : t('admin.save')}
      busy={busy}
      error={error}
      onSubmit={submit}
      onClose={onClose}
    >
      <div class="grid">
        <TextField label={t('admin.coach.firstName')} value={values.firstName} onValue={set('firstName')} required error={message('firstName')} />
        <TextField label={t('admin.coach.lastName')} value={values.lastName} onValue={set('lastName')} required error={message('lastName')} />
      </div>
      <TextField label={t('admin.coach.email')} type="email" value={values.email} onValue={set('email')} required error={message('email')} />
      <div class="grid">
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
        <CheckboxField label={t('admin.coach.isAdmin')} checked={values.isAdmin} onValue={set('isAdmin')} />
        <CheckboxField label={t('admin.coach.isHealthManager')} checked={values.isHealthManager} onValue={set('isHealthManager')} />
      </fieldset>
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

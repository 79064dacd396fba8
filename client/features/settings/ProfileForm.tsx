import { useState, type ReactNode } from 'react';
import type { Coach } from '../../../contract/schemas/coaches.ts';
import { useMutation } from '../../data/useMutation.ts';
import { ConflictError } from '../../data/useForm.ts';
import { t } from '../../lib/i18n.ts';

export interface ProfileValues {
  firstName: string;
  lastName: string;
  title: string;
  phone: string;
}

interface Props {
  coach: Coach;
  onSave: (values: ProfileValues) => Promise<void>;
  onCancel: () => void;
  describeError: (error: unknown) => string;
  /** Shown above the buttons (the ConflictNotice after a concurrent change). */
  notice?: ReactNode;
}

/** Edit name, job title and phone; a failed save keeps everything typed and says why. */
export function ProfileForm({ coach, onSave, onCancel, describeError, notice }: Props) {
  const [values, setValues] = useState<ProfileValues>({ firstName: coach.firstName, lastName: coach.lastName, title: coach.title, phone: coach.phone });
  // A concurrent change is shown by the notice, with the other version; the typed values stay.
  const { busy, error, run } = useMutation((failure) => (failure instanceof ConflictError ? null : describeError(failure)));
  const [checked, setChecked] = useState(false);
  const missing = (value: string) => checked && value.trim() === '';

  const submit = async (event: Event) => {
    event.preventDefault();
    setChecked(true);
    if (values.firstName.trim() === '' || values.lastName.trim() === '') return;
    await run(() => onSave({ ...values, firstName: values.firstName.trim(), lastName: values.lastName.trim() }));
  };
  const field = (name: keyof ProfileValues, label: string, required: boolean, autoComplete: string) => (
    <label>
      {label}
      <input
        name={name}
        value={values[name]}
        required={required}
        autoComplete={autoComplete}
        aria-invalid={required && missing(values[name]) ? true : undefined}
        onInput={(e) => setValues((v) => ({ ...v, [name]: e.currentTarget.value }))}
      />
      {required && missing(values[name]) && <small className="field-error">{t('settings.required')}</small>}
    </label>
  );

  return (
    <form onSubmit={submit} noValidate className="settings-profile-form">
      <div className="grid">
        {field('firstName', t('settings.firstName'), true, 'given-name')}
        {field('lastName', t('settings.lastName'), true, 'family-name')}
      </div>
      <div className="grid">
        {field('title', t('settings.jobTitle'), false, 'organization-title')}
        {field('phone', t('settings.phone'), false, 'tel')}
      </div>
      {error && (
        <p role="alert" className="form-error">
          {t('settings.saveFailed')} {error}
        </p>
      )}
      {notice}
      <div className="button-row">
        <button type="submit" disabled={busy} aria-busy={busy}>
          {t('settings.save')}
        </button>
        <button type="button" className="secondary outline" onClick={onCancel}>
          {t('settings.cancel')}
        </button>
      </div>
    </form>
  );
}

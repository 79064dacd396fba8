import { useState } from 'react';
import { updatePassword } from '../../api/auth.ts';
import { errorText } from '../../components/errorText.ts';
import { useAction } from '../../components/useAction.ts';
import { t } from '../../lib/i18n.ts';
import { PasswordInput } from '../../components/PasswordInput.tsx';
import { currentPasswordError, newPasswordError, repeatPasswordError, submitError, type PasswordValues } from './password-rules.ts';

const EMPTY: PasswordValues = { current: '', next: '', repeat: '' };
type Field = keyof PasswordValues;

/** Change the own password; what was typed stays in the fields when the change fails. */
export function PasswordForm() {
  const [values, setValues] = useState(EMPTY);
  const [touched, setTouched] = useState<Record<Field, boolean>>({ current: false, next: false, repeat: false });
  const [done, setDone] = useState(false);
  const { busy, error, run, fail } = useAction((failure) =>
    (failure as { status?: number }).status === 400 ? t('settings.currentWrong') : errorText(failure),
  );

  const fieldError = (field: Field): string | null => {
    if (!touched[field]) return null;
    const key =
      field === 'current' ? currentPasswordError(values.current) : field === 'next' ? newPasswordError(values.next) : repeatPasswordError(values.repeat);
    return key ? t(key) : null;
  };
  const set = (field: Field) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setDone(false);
  };
  const touch = (field: Field) => () => setTouched((s) => ({ ...s, [field]: true }));

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setDone(false);
    const problem = submitError(values);
    if (problem) {
      setTouched({ current: true, next: true, repeat: true });
      fail(t(problem));
      return;
    }
    await run(async () => {
      await updatePassword({ oldPassword: values.current, newPassword: values.next });
      setValues(EMPTY);
      setTouched({ current: false, next: false, repeat: false });
      setDone(true);
    });
  };

  return (
    <form className="settings-password" onSubmit={submit} noValidate aria-labelledby="settings-password-heading">
      <h2 id="settings-password-heading">{t('settings.passwordHeading')}</h2>
      <PasswordInput
        label={t('settings.currentPassword')}
        autoComplete="current-password"
        value={values.current}
        error={fieldError('current')}
        onInput={set('current')}
        onBlur={touch('current')}
      />
      <PasswordInput
        label={t('settings.newPassword')}
        autoComplete="new-password"
        value={values.next}
        error={fieldError('next')}
        onInput={set('next')}
        onBlur={touch('next')}
      />
      <PasswordInput
        label={t('settings.repeatPassword')}
        autoComplete="new-password"
        value={values.repeat}
        error={fieldError('repeat')}
        onInput={set('repeat')}
        onBlur={touch('repeat')}
      />
      {error && (
        <div role="alert" className="error-area">
          <strong>{t('settings.errorTitle')}</strong>
          <p>{error}</p>
        </div>
      )}
      {done && (
        <p role="status" className="form-success">
          {t('settings.passwordChanged')}
        </p>
      )}
      <button type="submit" disabled={busy} aria-busy={busy}>
        {t('settings.changePassword')}
      </button>
    </form>
  );
}

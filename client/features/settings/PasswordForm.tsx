import { useState } from 'react';
import { updatePassword } from '../../api/auth.ts';
import { errorText } from '../../components/errorText.ts';
import { useMutation } from '../../data/useMutation.ts';
import { t } from '../../lib/i18n.ts';
import { PasswordInput } from '../../components/PasswordInput.tsx';
import { passwordRefusal, refusalText } from '../../lib/password-rules.ts';
import { user } from '../../state/session.ts';
import { currentPasswordError, newPasswordError, repeatPasswordError, submitError, type PasswordValues } from './password-rules.ts';

const EMPTY: PasswordValues = { current: '', next: '', repeat: '' };
type Field = keyof PasswordValues;

/** What a failed change says above the button; a refused new password is named at its field instead. */
function describeFailure(failure: unknown): string {
  if (passwordRefusal(failure)) return t('settings.checkFields');
  return (failure as { status?: number }).status === 400 ? t('settings.currentWrong') : errorText(failure);
}

/** The three fields in order: which, its label, what the browser's password manager may fill in. */
const FIELDS: [Field, string, 'current-password' | 'new-password'][] = [
  ['current', 'settings.currentPassword', 'current-password'],
  ['next', 'settings.newPassword', 'new-password'],
  ['repeat', 'settings.repeatPassword', 'new-password'],
];

/** Change the own password; what was typed stays in the fields when the change fails. */
export function PasswordForm() {
  const [values, setValues] = useState(EMPTY);
  const [touched, setTouched] = useState<Record<Field, boolean>>({ current: false, next: false, repeat: false });
  const [done, setDone] = useState(false);
  // The server's refusal of the new password (too common, names the coach), until it is changed.
  const [refused, setRefused] = useState<string | null>(null);
  const { busy, error, run, fail } = useMutation(describeFailure);
  const owner = user.value ?? undefined;

  const fieldError = (field: Field): string | null => {
    if (field === 'next' && refused) return t(refused);
    if (!touched[field]) return null;
    const key =
      field === 'current' ? currentPasswordError(values.current) : field === 'next' ? newPasswordError(values.next, owner) : repeatPasswordError(values.repeat);
    return key ? t(key) : null;
  };
  const set = (field: Field) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (field === 'next') setRefused(null);
    setDone(false);
  };
  const touch = (field: Field) => () => setTouched((s) => ({ ...s, [field]: true }));

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setDone(false);
    const problem = submitError(values, owner);
    if (problem) {
      setTouched({ current: true, next: true, repeat: true });
      fail(t(problem));
      return;
    }
    await run(async () => {
      try {
        await updatePassword({ oldPassword: values.current, newPassword: values.next });
      } catch (failure) {
        const refusal = passwordRefusal(failure);
        if (refusal) setRefused(refusalText(refusal));
        throw failure;
      }
      setValues(EMPTY);
      setTouched({ current: false, next: false, repeat: false });
      setDone(true);
    });
  };

  return (
    <form className="settings-password" onSubmit={submit} noValidate aria-labelledby="settings-password-heading">
      <h2 id="settings-password-heading">{t('settings.passwordHeading')}</h2>
      {FIELDS.map(([field, label, autoComplete]) => (
        <PasswordInput
          key={field}
          label={t(label)}
          autoComplete={autoComplete}
          value={values[field]}
          error={fieldError(field)}
          onInput={set(field)}
          onBlur={touch(field)}
        />
      ))}
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

import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { setPassword } from '../../api/auth.ts';
import { clearToken, setToken } from '../../lib/token.ts';
import { token } from '../../state/session.ts';
import { showAlert } from '../../components/Dialog.tsx';
import { useMutation } from '../../data/useMutation.ts';
import { t } from '../../lib/i18n.ts';
import { PasswordInput } from '../../components/PasswordInput.tsx';
import { passwordRefusal, refusalText } from '../../lib/password-rules.ts';
import { addressWithoutToken, newPasswordError, repeatPasswordError, submitError, tokenFromSearch } from './password-rules.ts';

/** Take the link's token once: store it as the current token, then remove it from the address bar. */
function adoptLinkToken(): void {
  const linkToken = tokenFromSearch(location.search);
  if (!linkToken) return;
  setToken(linkToken);
  token.value = linkToken;
  history.replaceState(history.state, '', addressWithoutToken(location.pathname, location.search, location.hash));
}

/** Forget the one-time token after use: it is spent either way. */
function forgetLinkToken(): void {
  clearToken();
  token.value = null;
}

/** Set a new password from the emailed link (docs/product.md sections 2, 4, 5, 8). */
export default function ResetPassword() {
  const [, navigate] = useLocation();
  const [password, setPasswordValue] = useState('');
  const [repeat, setRepeat] = useState('');
  const [touched, setTouched] = useState({ password: false, repeat: false });
  // A failed reset is not kept on this screen: an alert says so and leads to a new request. `error` holds
  // only what the check of the two fields finds.
  const { busy: submitting, error: problemText, run, fail } = useMutation<string>();
  // The server refused the password itself (too common, names the coach): the link still works, a new one is asked.
  const [refused, setRefused] = useState<string | null>(null);

  useEffect(adoptLinkToken, []);

  const passwordError = refused ?? (touched.password ? newPasswordError(password) : null);
  const repeatError = touched.repeat ? repeatPasswordError(repeat) : null;

  const submit = async (event: Event) => {
    event.preventDefault();
    if (submitting) return;
    setTouched({ password: true, repeat: true });
    const problem = submitError(password, repeat);
    if (problem) {
      fail(t(problem));
      return;
    }
    await run(async () => {
      try {
        await setPassword({ password });
        forgetLinkToken();
        navigate('/login');
      } catch (failure) {
        const refusal = passwordRefusal(failure);
        if (refusal) {
          setRefused(refusalText(refusal));
          throw t('resetPassword.checkFields');
        }
        forgetLinkToken();
        await showAlert({ type: 'error', title: t('resetPassword.failureTitle'), text: t('resetPassword.failureText') });
        navigate('/coach-reset-password');
      }
    });
  };

  return (
    <main className="auth-page">
      <form className="auth-card reset-password-form" onSubmit={submit} noValidate>
        <h1>{t('resetPassword.title')}</h1>
        <PasswordInput
          labelHidden
          label={t('resetPassword.passwordLabel')}
          placeholder={t('resetPassword.passwordPlaceholder')}
          autoComplete="new-password"
          value={password}
          error={passwordError ? t(passwordError) : null}
          onInput={(value) => {
            setPasswordValue(value);
            setRefused(null);
          }}
          onBlur={() => setTouched((s) => ({ ...s, password: true }))}
        />
        <PasswordInput
          labelHidden
          label={t('resetPassword.repeatLabel')}
          placeholder={t('resetPassword.repeatPlaceholder')}
          autoComplete="new-password"
          value={repeat}
          error={repeatError ? t(repeatError) : null}
          onInput={setRepeat}
          onBlur={() => setTouched((s) => ({ ...s, repeat: true }))}
        />
        {problemText ? (
          <div className="error-area" role="alert">
            <strong>{t('resetPassword.errorHeading')}</strong>
            <p>{problemText}</p>
          </div>
        ) : null}
        <button type="submit" className="full-width" disabled={submitting} aria-busy={submitting}>
          {t('resetPassword.submit')}
        </button>
      </form>
    </main>
  );
}

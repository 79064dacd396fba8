import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { setPassword } from '../../api/auth.ts';
import { clearToken, setToken } from '../../lib/token.ts';
import { token } from '../../state/session.ts';
import { showAlert } from '../../components/Dialog.tsx';
import { t } from '../../lib/i18n.ts';
import { PasswordInput } from '../../components/PasswordInput.tsx';
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
  const [submitting, setSubmitting] = useState(false);
  const [errorText, setErrorText] = useState('');

  useEffect(adoptLinkToken, []);

  const passwordError = touched.password ? newPasswordError(password) : null;
  const repeatError = touched.repeat ? repeatPasswordError(repeat) : null;

  const submit = async (event: Event) => {
    event.preventDefault();
    if (submitting) return;
    setTouched({ password: true, repeat: true });
    const problem = submitError(password, repeat);
    if (problem) {
      setErrorText(t(problem));
      return;
    }
    setErrorText('');
    setSubmitting(true);
    try {
      await setPassword({ password });
      forgetLinkToken();
      navigate('/login');
    } catch {
      forgetLinkToken();
      await showAlert({ type: 'error', title: t('resetPassword.failureTitle'), text: t('resetPassword.failureText') });
      navigate('/coach-reset-password');
    } finally {
      setSubmitting(false);
    }
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
          onInput={setPasswordValue}
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
        {errorText ? (
          <div className="error-area" role="alert">
            <strong>{t('resetPassword.errorHeading')}</strong>
            <p>{errorText}</p>
          </div>
        ) : null}
        <button type="submit" className="full-width" disabled={submitting} aria-busy={submitting}>
          {t('resetPassword.submit')}
        </button>
      </form>
    </main>
  );
}

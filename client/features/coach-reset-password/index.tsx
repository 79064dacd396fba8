import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { forgotPassword } from '../../api/auth.ts';
import { showAlert } from '../../components/Dialog.tsx';
import { Emphasized } from '../../components/Emphasized.tsx';
import { t } from '../../lib/i18n.ts';
import { isEmail } from '../../lib/validation.ts';

/**
 * Request a password reset (docs/product.md sections 2, 4, 5, 8). The request is fired without waiting and the
 * same "Erfolg" dialog follows whatever happens, so the screen never reveals whether an account exists.
 * The button is not blocked by form validity, and the submitting flag is never set in this flow.
 */
export default function CoachResetPassword() {
  const [, navigate] = useLocation();
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const submitting = false;

  const value = email.trim();
  const showRequired = touched && value === '';
  const showInvalid = touched && value !== '' && !isEmail(value);

  const submit = async (event: Event) => {
    event.preventDefault();
    setTouched(true);
    forgotPassword({ email: value }).catch(() => undefined);
    await showAlert({ type: 'success', title: t('coachResetPassword.successTitle'), text: t('coachResetPassword.successText') });
    navigate('/login');
  };

  return (
    <main className="auth-page">
      <form className="auth-card reset-request-form" onSubmit={submit} noValidate>
        <h1>{t('coachResetPassword.title')}</h1>
        <label>
          <span className="visually-hidden">{t('coachResetPassword.emailLabel')}</span>
          <input
            type="email"
            name="email"
            autoComplete="email"
            placeholder={t('coachResetPassword.emailPlaceholder')}
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
            onBlur={() => setTouched(true)}
            aria-invalid={showRequired || showInvalid ? true : undefined}
            aria-describedby="reset-email-error"
          />
        </label>
        <small id="reset-email-error" className="field-error">
          {showRequired ? <Emphasized text={t('coachResetPassword.emailRequired')} /> : null}
          {showInvalid ? t('coachResetPassword.emailInvalid') : null}
        </small>
        <button type="submit" className="full-width" disabled={submitting}>
          {t('coachResetPassword.submit')}
        </button>
        <p className="auth-links">
          <Link href="/login">{t('coachResetPassword.backToLogin')}</Link>
        </p>
      </form>
    </main>
  );
}

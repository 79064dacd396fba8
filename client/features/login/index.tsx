import { useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { login, lastLoginFailure } from '../../state/session.ts';
import { safeReturnUrl } from '../../lib/return-url.ts';
import { instanceTitle } from '../../lib/instance-title.ts';
import { t } from '../../lib/i18n.ts';
import { endReasonText } from '../../lib/session-end.ts';

/** Login screen: after a successful login the person lands on returnUrl (same-origin paths only). */
export default function LoginScreen() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // The one screen without useMutation: login() never throws (its failure is lastLoginFailure), and the hook would add
  // about 100 bytes (brotli) to the first screen, which has 30 KB in all (measured with `npm run size`).
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<'failed' | 'unusable' | 'offline' | null>(null);
  // Why the last session ended (idle, expired), when the client sent the coach here itself.
  const ended = endReasonText(new URLSearchParams(search).get('reason'));

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setFailed(null);
    const me = await login(email.trim(), password);
    setBusy(false);
    if (me) {
      navigate(safeReturnUrl(new URLSearchParams(search).get('returnUrl')), { replace: true });
    } else if (lastLoginFailure.value !== 'locked') {
      // A locked account already got its alert; anything else gets one clear message under the form. An answer
      // the client cannot use is the server's fault, not the person's: they must not retype a correct password.
      setFailed(lastLoginFailure.value === 'unusable' || lastLoginFailure.value === 'offline' ? lastLoginFailure.value : 'failed');
    }
  };

  return (
    <main className="auth-page">
      <article className="auth-card">
        <header>
          <p className="auth-brand">{instanceTitle()}</p>
          <h1>{t('login.title')}</h1>
        </header>
        {ended ? <p role="status">{ended}</p> : null}
        <form onSubmit={submit} noValidate>
          <label>
            {t('login.email')}
            <input
              type="email"
              name="email"
              autoComplete="username"
              required
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value)}
              aria-invalid={failed === 'failed' ? true : undefined}
            />
          </label>
          <label>
            {t('login.password')}
            <input
              type="password"
              name="password"
              autoComplete="current-password"
              required
              value={password}
              onInput={(e) => setPassword(e.currentTarget.value)}
              aria-invalid={failed === 'failed' ? true : undefined}
            />
          </label>
          {failed ? (
            <p role="alert" className="form-error">
              {t(failed === 'unusable' ? 'login.unusableAnswer' : failed === 'offline' ? 'dataState.offline' : 'login.failed')}
            </p>
          ) : null}
          <button type="submit" disabled={busy} aria-busy={busy}>
            {t('login.submit')}
          </button>
        </form>
        <p className="auth-links">
          <Link href="/coach-reset-password">{t('login.forgotPassword')}</Link>
        </p>
      </article>
    </main>
  );
}

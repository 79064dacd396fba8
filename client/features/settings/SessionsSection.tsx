import { endOtherSessions } from '../../api/auth.ts';
import { errorText } from '../../components/errorText.ts';
import { useMutation } from '../../data/useMutation.ts';
import { t } from '../../lib/i18n.ts';
import { useState } from 'react';

/**
 * Signs the coach out everywhere else (a shared computer left signed in, a lost phone); this session stays. No
 * confirmation: nothing here is lost by it.
 */
export function SessionsSection() {
  const [done, setDone] = useState(false);
  const { busy, error, run } = useMutation((failure) => `${t('accounts.settings.endOtherSessionsFailed')} ${errorText(failure)}`);
  const end = async () => {
    setDone(false);
    setDone(await run(endOtherSessions));
  };
  return (
    <section aria-labelledby="settings-sessions-heading">
      <h2 id="settings-sessions-heading">{t('accounts.settings.sessionsHeading')}</h2>
      <p>{t('accounts.settings.sessionsText')}</p>
      <button type="button" className="secondary" disabled={busy} aria-busy={busy} onClick={() => void end()}>
        {t('accounts.settings.endOtherSessions')}
      </button>
      {done && (
        <p role="status" className="form-success">
          {t('accounts.settings.otherSessionsEnded')}
        </p>
      )}
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
    </section>
  );
}

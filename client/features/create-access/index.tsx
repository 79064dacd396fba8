import '../../components/records.css';
import './create-access.css';
import { useState } from 'react';
import { Link } from 'wouter';
import { createPatientToken } from '../../api/coaches.ts';
import { listPatientTokens } from '../../api/patient-tokens.ts';
import type { PatientToken } from '../../api/schemas/patient-tokens.ts';
import { CodeBlocks } from '../../components/CodeBlocks.tsx';
import { CopyButton } from '../../components/CopyButton.tsx';
import { DataState, listState } from '../../components/DataState.tsx';
import { creationErrorText } from '../../components/errorText.ts';
import { can } from '../../components/permissions.ts';
import { systemSettings } from '../../state/settings.ts';
import { useAction } from '../../components/useAction.ts';
import { useResource } from '../../components/useResource.ts';
import { formatDate, t } from '../../lib/i18n.ts';
import { user } from '../../state/session.ts';

export const printUrl = (token: Pick<PatientToken, 'code' | 'patientId'>) =>
  `/print/access-code?code=${encodeURIComponent(token.code)}${token.patientId ? `&patientId=${encodeURIComponent(token.patientId)}` : ''}`;

/** New User: an access code for a patient who is not in the system yet; the app links them to this coach. */
export default function CreateAccessPage() {
  const me = user.value;
  if (!can('createPatients', user.value, systemSettings.value)) {
    return (
      <section>
        <h1>{t('createAccess.title')}</h1>
        <p role="alert">{t('createAccess.notAllowed')}</p>
      </section>
    );
  }
  return (
    <section className="create-access">
      <header className="page-header">
        <h1>{t('createAccess.title')}</h1>
        <p className="muted">{t('createAccess.intro')}</p>
      </header>
      {me && <NewCode coachId={me.id} />}
      {me && <OpenCodes coachId={me.id} />}
    </section>
  );
}

function NewCode({ coachId }: { coachId: string }) {
  const [token, setToken] = useState<PatientToken | null>(null);
  const { busy, error, run } = useAction();
  const create = () => run(async () => setToken((await createPatientToken(coachId, {})).data));

  return (
    <section className="card new-code" aria-labelledby="new-code-heading">
      <h2 id="new-code-heading">{token ? t('createAccess.created') : t('createAccess.newTitle')}</h2>
      {token ? (
        <>
          <CodeBlocks code={token.code} label={t('createAccess.codeLabel')} large />
          <p>{t('createAccess.validUntil', { date: formatDate(token.expiresAt, { dateStyle: 'long' }) })}</p>
          <div className="form-actions">
            <CopyButton text={token.code} />
            <a role="button" href={printUrl(token)} target="_blank" rel="noopener">
              {t('createAccess.print')}
            </a>
            <button type="button" className="secondary outline" disabled={busy} onClick={() => void create()}>
              {t('createAccess.another')}
            </button>
          </div>
          <p className="muted">{t('createAccess.next')}</p>
        </>
      ) : (
        <>
          <ol className="steps">
            <li>{t('createAccess.step1')}</li>
            <li>{t('createAccess.step2')}</li>
            <li>{t('createAccess.step3')}</li>
          </ol>
          <button type="button" disabled={busy} aria-busy={busy} onClick={() => void create()}>
            {t('createAccess.create')}
          </button>
        </>
      )}
      {error !== null && (
        <div role="alert" className="inline-error">
          <p>
            {t('createAccess.failed')} {creationErrorText(error)}
          </p>
          <button type="button" className="secondary" onClick={() => void create()}>
            {t('dataState.retry')}
          </button>
        </div>
      )}
    </section>
  );
}

/** Codes this coach made that nobody has used yet, so a code read out yesterday can be found again. */
function OpenCodes({ coachId }: { coachId: string }) {
  const list = useResource(
    (signal) =>
      listPatientTokens({ where: { coachId, usedAt: null, expiresAt: { gt: new Date().toISOString() } }, order: 'createdAt DESC', limit: 20 }, signal),
    coachId,
  );
  return (
    <section className="card" aria-labelledby="open-codes-heading">
      <div className="card-head">
        <h2 id="open-codes-heading">{t('createAccess.openTitle')}</h2>
        <button type="button" className="secondary outline small" onClick={list.reload}>
          {t('createAccess.refresh')}
        </button>
      </div>
      <DataState {...listState(list, t('createAccess.openEmpty'))}>
        <ul className="row-list">
          {(list.data ?? []).map((token) => (
            <li key={token.id}>
              <span>
                <code className="code-inline">{token.code}</code>{' '}
                <small className="muted">{t('createAccess.openMeta', { created: formatDate(token.createdAt), expires: formatDate(token.expiresAt) })}</small>
                {token.patientId && (
                  <>
                    {' '}
                    · <Link href={`/patient/${encodeURIComponent(token.patientId)}`}>{t('createAccess.toPatient')}</Link>
                  </>
                )}
              </span>
              <a role="button" className="secondary outline small" href={printUrl(token)} target="_blank" rel="noopener">
                {t('createAccess.printShort')}
              </a>
            </li>
          ))}
        </ul>
      </DataState>
    </section>
  );
}

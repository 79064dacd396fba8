import '../../components/records.css';
import './create-access.css';
import { useState } from 'react';
import { Link } from 'wouter';
import { createPatientToken } from '../../api/coaches.ts';
import { listPatientTokens } from '../../api/patient-tokens.ts';
import { PATIENT_TOKEN_LABEL_MAX, type PatientToken } from '../../../contract/schemas/patient-tokens.ts';
import { CodeBlocks } from '../../components/CodeBlocks.tsx';
import { CopyButton } from '../../components/CopyButton.tsx';
import { DataState, listState } from '../../components/DataState.tsx';
import { creationErrorText, saveFailureText } from '../../components/errorText.ts';
import { can } from '../../domain/permissions.ts';
import { systemSettings } from '../../state/settings.ts';
import { useMutation } from '../../data/useMutation.ts';
import { useQuery } from '../../data/useQuery.ts';
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
      {me && <Codes coachId={me.id} />}
    </section>
  );
}

type OpenCodeList = ReturnType<typeof useOpenCodes>;

function useOpenCodes(coachId: string) {
  return useQuery(
    (signal) =>
      listPatientTokens({ where: { coachId, usedAt: null, expiresAt: { gt: new Date().toISOString() } }, order: 'createdAt DESC', limit: 20 }, signal),
    coachId,
  );
}

/** The new code and the open ones share one list: a code just made is one of them at once, without reloading. */
function Codes({ coachId }: { coachId: string }) {
  const list = useOpenCodes(coachId);
  const created = (token: PatientToken) => {
    // While the list is still loading (or failed) its answer may predate the new code: ask again instead.
    if (list.status === 'ready') list.setData((tokens) => [token, ...tokens.filter((other) => other.id !== token.id)]);
    else list.reload();
  };
  return (
    <>
      <NewCode coachId={coachId} onCreated={created} />
      <OpenCodes list={list} />
    </>
  );
}

function NewCode({ coachId, onCreated }: { coachId: string; onCreated: (token: PatientToken) => void }) {
  const [token, setToken] = useState<PatientToken | null>(null);
  const [label, setLabel] = useState('');
  const { busy, error, run } = useMutation();
  const create = () =>
    run(async () => {
      const made = (await createPatientToken(coachId, label.trim() ? { label: label.trim() } : {})).data;
      setToken(made);
      setLabel('');
      onCreated(made);
    });

  return (
    <section className="card new-code" aria-labelledby="new-code-heading">
      <h2 id="new-code-heading">{token ? t('createAccess.created') : t('createAccess.newTitle')}</h2>
      {token ? (
        <>
          <CodeBlocks code={token.code} label={t('createAccess.codeLabel')} large />
          {token.label && <p className="code-label">{t('accessCodes.labelOf', { label: token.label })}</p>}
          <p>{t('createAccess.validUntil', { date: formatDate(token.expiresAt, { dateStyle: 'medium' }) })}</p>
          <div className="form-actions">
            <CopyButton text={token.code} />
            <a role="button" href={printUrl(token)} target="_blank" rel="noopener">
              {t('createAccess.print')}
            </a>
          </div>
          <LabelField value={label} onChange={setLabel} />
          <button type="button" className="secondary outline" disabled={busy} onClick={() => void create()}>
            {t('createAccess.another')}
          </button>
          <p className="muted">{t('createAccess.next')}</p>
        </>
      ) : (
        <>
          <ol className="steps">
            <li>{t('createAccess.step1')}</li>
            <li>{t('createAccess.step2')}</li>
            <li>{t('createAccess.step3')}</li>
          </ol>
          <LabelField value={label} onChange={setLabel} />
          <button type="button" disabled={busy} aria-busy={busy} onClick={() => void create()}>
            {t('createAccess.create')}
          </button>
        </>
      )}
      {error !== null && (
        <div role="alert" className="inline-error">
          <p>{saveFailureText(t('createAccess.failed'), error, creationErrorText)}</p>
          <button type="button" className="secondary" onClick={() => void create()}>
            {t('dataState.retry')}
          </button>
        </div>
      )}
    </section>
  );
}

/** Whom the next code is for: optional, kept with the code so it can be told apart in the list. */
function LabelField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <label className="code-label-field">
      {t('accessCodes.label')}
      <input
        type="text"
        value={value}
        maxLength={PATIENT_TOKEN_LABEL_MAX}
        autoComplete="off"
        aria-describedby="code-label-hint"
        onInput={(event) => onChange((event.target as HTMLInputElement).value)}
      />
      <small id="code-label-hint" className="muted">
        {t('accessCodes.labelHint')}
      </small>
    </label>
  );
}

/** Codes this coach made that nobody has used yet, so a code read out yesterday can be found again. */
function OpenCodes({ list }: { list: OpenCodeList }) {
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
                {token.label && <strong className="code-label">{token.label}</strong>} <code className="code-inline">{token.code}</code>{' '}
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

import { useState } from 'react';
import { getOrCreateUnusedToken } from '../../../api/patients.ts';
import { createPatientTokenRecord } from '../../../api/patient-tokens.ts';
import type { PatientToken } from '../../../../contract/schemas/patient-tokens.ts';
import { CodeBlocks } from '../../../components/CodeBlocks.tsx';
import { CopyButton } from '../../../components/CopyButton.tsx';
import { saveFailureText } from '../../../components/errorText.ts';
import { useMutation } from '../../../data/useMutation.ts';
import { formatDate, t } from '../../../lib/i18n.ts';

/**
 * The patient's unused access code. Fetched only on request: "get or create" makes a new code, and
 * merely opening a patient should not.
 */
export function AccessCode({ patientId }: { patientId: string }) {
  const [token, setToken] = useState<PatientToken | null>(null);
  // The API has no unused code for this patient and did not make one (404): the coach makes one here.
  const [none, setNone] = useState(false);
  const { busy, error, run } = useMutation();
  const load = () =>
    run(async () => {
      const found = (await getOrCreateUnusedToken(patientId)).data;
      setToken(found);
      setNone(found === null);
    });
  const create = () =>
    run(async () => {
      setToken((await createPatientTokenRecord({ patientId })).data);
      setNone(false);
    });

  return (
    <section aria-labelledby="code-heading" className="card">
      <h2 id="code-heading">{t('patient.code.title')}</h2>
      <p className="muted">{t('patient.code.hint')}</p>
      {token ? (
        <>
          <CodeBlocks code={token.code} label={t('patient.code.title')} />
          <p className="muted">{t('patient.code.expires', { date: formatDate(token.expiresAt) })}</p>
          <div className="form-actions">
            <CopyButton text={token.code} />
            <a
              role="button"
              className="secondary"
              href={`/print/access-code?code=${encodeURIComponent(token.code)}&patientId=${encodeURIComponent(patientId)}`}
              target="_blank"
              rel="noopener"
            >
              {t('patient.code.print')}
            </a>
          </div>
        </>
      ) : none ? (
        <>
          <p role="status">{t('patient.code.none')}</p>
          <button type="button" disabled={busy} aria-busy={busy} onClick={() => void create()}>
            {t('patient.code.create')}
          </button>
        </>
      ) : (
        <button type="button" disabled={busy} aria-busy={busy} onClick={() => void load()}>
          {t('patient.code.show')}
        </button>
      )}
      {error !== null && (
        <div role="alert" className="inline-error">
          <p>{saveFailureText(t('patient.code.failed'), error)}</p>
          <button type="button" className="secondary" onClick={() => void (none ? create() : load())}>
            {t('dataState.retry')}
          </button>
        </div>
      )}
    </section>
  );
}

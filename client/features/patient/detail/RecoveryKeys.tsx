import { createPuk, listPuks } from '../../../api/patients.ts';
import { CodeBlocks } from '../../../components/CodeBlocks.tsx';
import { DataState, listState } from '../../../components/DataState.tsx';
import { saveFailureText } from '../../../components/errorText.ts';
import { useMutation } from '../../../data/useMutation.ts';
import { useQuery } from '../../../data/useQuery.ts';
import { formatDate, t } from '../../../lib/i18n.ts';

/** Recovery keys (PUKs): a patient with a new phone gets their data back with one. Newest first. */
export function RecoveryKeys({ patientId }: { patientId: string }) {
  const puks = useQuery(async (signal) => {
    const result = await listPuks(patientId, signal);
    return { data: [...result.data].sort((a, b) => b.createdAt.localeCompare(a.createdAt)) };
  }, patientId);
  const { busy, error, run } = useMutation();
  const create = () =>
    run(async () => {
      const { data } = await createPuk(patientId);
      puks.setData((list) => [data, ...list]);
    });

  return (
    <section aria-labelledby="puks-heading" className="card">
      <div className="card-head">
        <h2 id="puks-heading">{t('patient.puks.title')}</h2>
        <button type="button" className="secondary" disabled={busy} aria-busy={busy} onClick={() => void create()}>
          {t('patient.puks.create')}
        </button>
      </div>
      <p className="muted">{t('patient.puks.hint')}</p>
      {error !== null && (
        <p role="alert" className="inline-error">
          {saveFailureText(t('patient.puks.failed'), error)}
        </p>
      )}
      <DataState {...listState(puks, t('patient.puks.empty'))}>
        <ul className="puk-list">
          {(puks.data ?? []).map((puk) => (
            <li key={puk.id} className={puk.usedAt ? 'puk used' : 'puk'}>
              <CodeBlocks code={puk.code} label={t('patient.puks.code')} />
              <small className="muted">
                {t('patient.puks.created', { date: formatDate(puk.createdAt) })}
                {' · '}
                {puk.usedAt ? t('patient.puks.used', { date: formatDate(puk.usedAt) }) : t('patient.puks.unused')}
              </small>
            </li>
          ))}
        </ul>
      </DataState>
    </section>
  );
}

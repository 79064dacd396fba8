import { useState } from 'react';
import { listCoaches } from '../../../api/coaches.ts';
import { getPrimaryCoach, linkPatientCoach, listPatientCoaches, unlinkPatientCoach } from '../../../api/patients.ts';
import type { Coach } from '../../../api/schemas/coaches.ts';
import { DataState } from '../../../components/DataState.tsx';
import { errorText } from '../../../components/errorText.ts';
import { useResource } from '../../../components/useResource.ts';
import { t } from '../../../lib/i18n.ts';

/** Primary coach (contact card) and the other coaches linked to the patient. */
export function CareTeam({ patientId }: { patientId: string }) {
  const primary = useResource((signal) => getPrimaryCoach(patientId, signal), patientId);
  const linked = useResource((signal) => listPatientCoaches(patientId, signal), patientId);
  // Colleagues to add; when the list cannot be read the team is shown without the "add" choice.
  const all = useResource(
    (signal) => listCoaches({ order: ['lastName ASC', 'firstName ASC'], limit: 1000 }, signal).catch(() => ({ data: [] as Coach[] })),
    patientId,
  );
  const [choice, setChoice] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function change(action: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    try {
      await action();
      setChoice('');
      linked.reload();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  const linkedIds = new Set((linked.data ?? []).map((c) => c.id));
  const candidates = (all.data ?? []).filter((c) => !linkedIds.has(c.id) && c.id !== primary.data?.id && !c.isUserLocked);
  return (
    <section aria-labelledby="team-heading" className="card">
      <h2 id="team-heading">{t('patient.team.title')}</h2>
      <h3>{t('patient.team.primary')}</h3>
      <DataState status={primary.status} error={primary.error} onRetry={primary.reload}>
        {primary.data ? (
          <address className="coach-card">
            <strong>{[primary.data.title, primary.data.firstName, primary.data.lastName].filter(Boolean).join(' ')}</strong>
            {primary.data.email && <><br /><a href={`mailto:${primary.data.email}`}>{primary.data.email}</a></>}
            {primary.data.phone && <><br /><a href={`tel:${primary.data.phone.replace(/[^\d+]/g, '')}`}>{primary.data.phone}</a></>}
          </address>
        ) : (
          <p className="muted">{t('patient.team.noPrimary')}</p>
        )}
      </DataState>
      <h3>{t('patient.team.linked')}</h3>
      <DataState
        status={linked.status}
        error={linked.error}
        onRetry={linked.reload}
        hasData={!!linked.data}
        empty={linked.data?.length === 0}
        emptyText={t('patient.team.noLinked')}
      >
        <ul className="row-list">
          {(linked.data ?? []).map((coach) => (
            <li key={coach.id}>
              <span>{coach.firstName} {coach.lastName}{coach.title ? `, ${coach.title}` : ''}</span>
              <button
                type="button"
                className="secondary outline small"
                disabled={busy}
                aria-label={t('patient.team.unlinkNamed', { name: `${coach.firstName} ${coach.lastName}` })}
                onClick={() => void change(() => unlinkPatientCoach(patientId, coach.id))}
              >
                {t('patient.team.unlink')}
              </button>
            </li>
          ))}
        </ul>
      </DataState>
      {candidates.length > 0 && (
        <form className="inline-form" onSubmit={(e) => { e.preventDefault(); if (choice) void change(() => linkPatientCoach(patientId, choice)); }}>
          <label htmlFor={`link-coach-${patientId}`}>{t('patient.team.add')}</label>
          <div className="inline-form-row">
            <select id={`link-coach-${patientId}`} value={choice} onChange={(e) => setChoice((e.target as HTMLSelectElement).value)}>
              <option value="">{t('patient.team.choose')}</option>
              {candidates.map((c) => (
                <option key={c.id} value={c.id}>{c.lastName}, {c.firstName}</option>
              ))}
            </select>
            <button type="submit" disabled={!choice || busy}>{t('patient.team.link')}</button>
          </div>
        </form>
      )}
      {error !== null && <p role="alert" className="inline-error">{t('patient.team.failed')} {errorText(error)}</p>}
    </section>
  );
}

import { listCoaches } from '../../../api/coaches.ts';
import { getPrimaryCoach, linkPatientCoach, listPatientCoaches, unlinkPatientCoach } from '../../../api/patients.ts';
import type { Coach } from '../../../../contract/schemas/coaches.ts';
import { DataState } from '../../../components/DataState.tsx';
import { useQuery } from '../../../data/useQuery.ts';
import { t } from '../../../lib/i18n.ts';
import { LinkedList } from './LinkedList.tsx';
import { coachListName, coachName } from '../../../lib/names.ts';
import { readAll } from '../../../data/fetch-all.ts';

/**
 * Primary coach (contact card) and the other coaches linked to the patient. Who is in the care team is the primary
 * coach's or an administrator's decision (the upstream enforces it); a colleague in the team may only leave it.
 * Without `me`, every control is offered and the server's answer decides.
 */
export function CareTeam({ patientId, me }: { patientId: string; me?: { id: string; manages: boolean } }) {
  const primary = useQuery((signal) => getPrimaryCoach(patientId, signal), patientId);
  const linked = useQuery((signal) => listPatientCoaches(patientId, signal), patientId);
  // Colleagues to add; when the list cannot be read the team is shown without the "add" choice.
  const all = useQuery(
    (signal) => readAll((range) => listCoaches({ order: ['lastName ASC', 'firstName ASC'], ...range }, signal), signal).catch(() => ({ data: [] as Coach[] })),
    patientId,
  );
  const linkedIds = new Set((linked.data ?? []).map((c) => c.id));
  const candidates = (all.data ?? []).filter((c) => !linkedIds.has(c.id) && c.id !== primary.data?.id && !c.isUserLocked);
  return (
    <section aria-labelledby="team-heading" className="card">
      <h2 id="team-heading">{t('patient.team.title')}</h2>
      <h3>{t('patient.team.primary')}</h3>
      <DataState status={primary.status} error={primary.error} onRetry={primary.reload}>
        {primary.data ? (
          <address className="coach-card">
            <strong>{[primary.data.title, coachName(primary.data)].filter(Boolean).join(' ')}</strong>
            {primary.data.email && (
              <>
                <br />
                <a href={`mailto:${primary.data.email}`}>{primary.data.email}</a>
              </>
            )}
            {primary.data.phone && (
              <>
                <br />
                <a href={`tel:${primary.data.phone.replace(/[^\d+]/g, '')}`}>{primary.data.phone}</a>
              </>
            )}
          </address>
        ) : (
          <p className="muted">{t('patient.team.noPrimary')}</p>
        )}
      </DataState>
      <h3>{t('patient.team.linked')}</h3>
      <LinkedList
        linked={linked}
        candidates={candidates}
        selectId={`link-coach-${patientId}`}
        textGroup="patient.team"
        emptyText={t('patient.team.noLinked')}
        unlinkLabel={(coach) => t('patient.team.unlinkNamed', { name: coachName(coach) })}
        renderItem={(coach) => `${coachName(coach)}${coach.title ? `, ${coach.title}` : ''}`}
        optionLabel={(coach) => coachListName(coach)}
        onLink={(id) => linkPatientCoach(patientId, id)}
        onUnlink={(id) => unlinkPatientCoach(patientId, id)}
        canLink={me ? me.manages : true}
        canUnlink={(coach) => (me ? me.manages || coach.id === me.id : true)}
      />
    </section>
  );
}

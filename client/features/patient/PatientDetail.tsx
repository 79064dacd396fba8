import { useEffect } from 'react';
import { Link, useSearch } from 'wouter';
import { getPatient } from '../../api/patients.ts';
import type { Patient } from '../../../contract/schemas/patients.ts';
import { AftercareBadge, dayText } from '../../components/AftercareBadge.tsx';
import { DataState } from '../../components/DataState.tsx';
import { FreshnessBadge } from '../../components/FreshnessBadge.tsx';
import { useQuery } from '../../data/useQuery.ts';
import { t } from '../../lib/i18n.ts';
import { user } from '../../state/session.ts';
import { can } from '../../domain/permissions.ts';
import { AccessCode } from './detail/AccessCode.tsx';
import { Appointments } from './detail/Appointments.tsx';
import { CareTeam } from './detail/CareTeam.tsx';
import { Comments } from './detail/Comments.tsx';
import { Devices } from './detail/Devices.tsx';
import { EvaluationForm } from './detail/EvaluationForm.tsx';
import { ExternalComments } from './detail/ExternalComments.tsx';
import { MasterData } from './detail/MasterData.tsx';
import { NextAppointments } from './detail/NextAppointments.tsx';
import { RecoveryKeys } from './detail/RecoveryKeys.tsx';
import { SyncedData } from './detail/SyncedData.tsx';
import { patientName } from '../../lib/names.ts';
import { PatientHistory } from './detail/PatientHistory.tsx';
import { PatientIdentity } from './detail/PatientIdentity.tsx';
import { PatientTimeline } from './detail/PatientTimeline.tsx';
import { useAuditLogAvailable } from './detail/history-support.ts';
import { markOpened } from '../../lib/last-opened.ts';
import { useActiveTabInView } from './useActiveTabInView.ts';

export const TABS = ['overview', 'timeline', 'comments', 'data', 'appointments', 'evaluation', 'access', 'history'] as const;
export type Tab = (typeof TABS)[number];

export function PatientDetail({ id }: { id: string }) {
  const search = useSearch();
  const params = new URLSearchParams(search);
  const requested = params.get('tab');
  const tab: Tab = (TABS as readonly string[]).includes(requested ?? '') ? (requested as Tab) : 'overview';
  const patient = useQuery((signal) => getPatient(id, signal), id);
  const me = user.value;
  // The dashboard's "Neue Notiz in der App" counts the app notes written after this moment.
  const coachId = me?.id ?? '';
  useEffect(() => markOpened(coachId, id), [coachId, id]);
  // "Verlauf" only where the API has the audit log (GET /audit-log is not in docs/product.md#calls).
  const history = useAuditLogAvailable(me?.id ?? '', id) === true;
  const tabs = TABS.filter((name) => name !== 'history' || history);
  const tabRow = useActiveTabInView<HTMLElement>(`${tab}:${tabs.length}:${patient.data ? 'shown' : ''}`);

  return (
    <section className="patient-detail">
      <p className="back-link">
        <Link href="/patient">{t('patient.backToList')}</Link>
      </p>
      <DataState status={patient.status} error={patient.error} onRetry={patient.reload} hasData={!!patient.data}>
        {patient.data && (
          <>
            <Header patient={patient.data} />
            {params.get('created') === '1' && (
              <p className="notice" role="status">
                {t('patient.create.done')}
              </p>
            )}
            <nav ref={tabRow} className="tabs" aria-label={t('patient.tabs.label')}>
              {tabs.map((name) => (
                <Link
                  key={name}
                  href={`/patient/${encodeURIComponent(id)}${name === 'overview' ? '' : `?tab=${name}`}`}
                  aria-current={tab === name ? 'page' : undefined}
                  className={tab === name ? 'tab active' : 'tab'}
                >
                  {t(name === 'timeline' ? 'timeline.tab' : `patient.tabs.${name}`)}
                </Link>
              ))}
            </nav>
            <div className="tab-panel">
              {tab === 'overview' && (
                <div className="panel-grid">
                  <MasterData patient={patient.data} coachId={me?.id ?? ''} onSaved={(p: Patient) => patient.setData(() => p)} />
                  <div>
                    <NextAppointments patient={patient.data} />
                    <CareTeam
                      patientId={id}
                      me={me ? { id: me.id, manages: can('manageAllPatients', me) || patient.data.primaryCoachId === me.id } : undefined}
                    />
                  </div>
                </div>
              )}
              {tab === 'timeline' && <PatientTimeline patient={patient.data} changes={history} />}
              {tab === 'comments' && (
                <div className="panel-grid panel-grid-wide-first">
                  <Comments patientId={id} userId={me?.id ?? ''} isAdmin={can('manageAllPatients', me)} history={history} />
                  <ExternalComments patientId={id} />
                </div>
              )}
              {tab === 'data' && <SyncedData patientId={id} />}
              {tab === 'appointments' && (
                <Appointments patient={patient.data} coachId={me?.id ?? ''} onSaved={(appointments) => patient.setData((p) => ({ ...p, appointments }))} />
              )}
              {tab === 'evaluation' && <EvaluationForm patientId={id} coachId={me?.id ?? ''} />}
              {tab === 'history' && history && <PatientHistory patientId={id} />}
              {tab === 'access' && (
                <div className="panel-grid">
                  <AccessCode patientId={id} />
                  <RecoveryKeys patientId={id} />
                  <Devices patientId={id} />
                </div>
              )}
            </div>
          </>
        )}
      </DataState>
    </section>
  );
}

function Header({ patient }: { patient: Patient }) {
  return (
    <header className="patient-header">
      <div>
        <h1>{patientName(patient)}</h1>
        <p className="patient-header-facts">
          <span>
            {t('patient.fields.patientCode')}: <code>{patient.patientCode}</code>
          </span>
          <AftercareBadge patient={patient} />
          <span className="nowrap">
            {dayText(patient.aftercareStart)} – {dayText(patient.aftercareEnd)}
          </span>
          <span>
            {t('patient.list.lastData')}: <FreshnessBadge lastDataAt={patient.lastDataAt} aftercareEnd={patient.aftercareEnd} />
          </span>
        </p>
        <PatientIdentity patient={patient} />
      </div>
      <a className="secondary outline" role="button" href={`/print/patient?id=${encodeURIComponent(patient.id)}`} target="_blank" rel="noopener">
        {t('patient.print')}
      </a>
    </header>
  );
}

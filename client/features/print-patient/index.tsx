import '../../components/records.css';
import '../../components/print.css';
import { useSearch } from 'wouter';
import { listCoaches } from '../../api/coaches.ts';
import { listCostRates } from '../../api/cost-rates.ts';
import { listDiagnoses } from '../../api/diagnosis.ts';
import { listDevices } from '../../api/devices.ts';
import { getEvaluationForm, getPatient, getPrimaryCoach, listPatientCoaches } from '../../api/patients.ts';
import { listSyncRecords } from '../../api/sync-db.ts';
import type { Appointment, EvaluationForm, Patient } from '../../../contract/schemas/patients.ts';
import { AftercareBadge, dayText, isoDay } from '../../components/AftercareBadge.tsx';
import { DataState } from '../../components/DataState.tsx';
import { lastDataText } from '../../components/FreshnessBadge.tsx';
import { PrintBar } from '../../components/PrintBar.tsx';
import type { HistoryNames } from '../../components/timeline/history-text.ts';
import { TimelineList } from '../../components/timeline/TimelineList.tsx';
import { timelineEntries, visibleEntries } from '../../components/timeline/timeline-entries.ts';
import { TIMELINE_KINDS, loadTimeline, type TimelinePage } from '../../components/timeline/timeline-load.ts';
import { useQuery } from '../../data/useQuery.ts';
import { formatDate, formatNumber, t } from '../../lib/i18n.ts';
import { instanceTitle } from '../../lib/instance-title.ts';
import { coachName, patientName } from '../../lib/names.ts';
import { readAll } from '../../data/fetch-all.ts';

/** Rows of each list the printed timeline reads: a long record prints its newest part, and says so. */
const TIMELINE_LIMIT = 200;
const dateTime = (value: string) => formatDate(value, { dateStyle: 'medium', timeStyle: 'short' });
/** A part that cannot be read is left out of the sheet rather than failing the whole print. */
const orNull = <T,>(p: Promise<{ data: T }>) =>
  p.then(
    (r) => r.data,
    () => null,
  );

async function loadRecord(id: string, signal: AbortSignal) {
  const { data: patient } = await getPatient(id, signal);
  const since = isoDay(new Date(Date.now() - 29 * 86_400_000));
  const [primary, coaches, evaluation, diagnoses, costRates, evaluations, allCoaches, devices, timeline] = await Promise.all([
    orNull(getPrimaryCoach(id, signal)),
    orNull(listPatientCoaches(id, signal)),
    orNull(getEvaluationForm(id, signal)),
    orNull(listDiagnoses({ where: { id: { inq: patient.diagnosisIds } }, limit: 100 }, signal)),
    patient.costRateId ? orNull(listCostRates({ where: { id: patient.costRateId }, limit: 1 }, signal)) : Promise.resolve(null),
    orNull(readAll((range) => listSyncRecords(id, 'day-evaluation', { where: { date: { gte: since } }, ...range }, signal), signal)),
    orNull(readAll((range) => listCoaches(range, signal), signal)),
    orNull(readAll((range) => listDevices(range, signal), signal)),
    loadTimeline({ patientId: id, appointments: patient.appointments, limit: TIMELINE_LIMIT, changes: true }, signal).catch(() => null),
  ]);
  const names: HistoryNames = {
    coaches: new Map([...(allCoaches ?? []), ...(coaches ?? [])].map((c) => [c.id, coachName(c)])),
    devices: new Map((devices ?? []).map((d) => [d.id, d.name])),
    diagnoses: new Map((diagnoses ?? []).map((d) => [d.id, d.code])),
    costRates: new Map((costRates ?? []).map((r) => [r.id, r.name])),
  };
  return { data: { patient, primary, coaches, evaluation, diagnoses, costRate: costRates?.[0] ?? null, evaluations, timeline, names } };
}

function avg(values: number[]): string {
  if (values.length === 0) return t('patient.none');
  return formatNumber(values.reduce((a, b) => a + b, 0) / values.length, { maximumFractionDigits: 1 });
}

/** The patient's record for the file: everything a colleague or the clinic needs, on paper. */
export default function PrintPatientPage() {
  const id = new URLSearchParams(useSearch()).get('id') ?? '';
  const record = useQuery((signal) => (id ? loadRecord(id, signal) : Promise.reject(new Error('no id'))), id);
  if (!id) {
    return (
      <main className="print-page">
        <h1>{t('print.patientTitle')}</h1>
        <p role="alert">{t('print.noPatient')}</p>
      </main>
    );
  }
  const r = record.data;
  return (
    <main className="print-page print-patient">
      <PrintBar />
      <DataState status={record.status} error={record.error} onRetry={record.reload}>
        {r && (
          <>
            <p className="print-brand">
              {instanceTitle()} · {t('print.patientTitle')}
            </p>
            <h1>{patientName(r.patient)}</h1>
            <p className="print-meta">{t('print.printedAt', { date: dateTime(new Date().toISOString()) })}</p>
            <MasterSection patient={r.patient} diagnoses={(r.diagnoses ?? []).map((d) => `${d.code} ${d.label}`)} costRate={r.costRate?.name ?? null} />
            <section className="print-section">
              <h2>{t('patient.team.title')}</h2>
              <p>
                {t('patient.team.primary')}: {r.primary ? [r.primary.title, coachName(r.primary)].filter(Boolean).join(' ') : t('patient.team.noPrimary')}
                {r.coaches && r.coaches.length > 0 && (
                  <>
                    <br />
                    {t('patient.team.linked')}: {r.coaches.map(coachName).join(', ')}
                  </>
                )}
              </p>
            </section>
            <section className="print-section">
              <h2>{t('print.dataSummary')}</h2>
              <p>
                {t('patient.list.lastData')}: {lastDataText(r.patient.lastDataAt)}
                <br />
                {t('print.evaluations30', { n: r.evaluations?.length ?? 0 })}
                {r.evaluations && r.evaluations.length > 0 && (
                  <>
                    <br />
                    {t('patient.data.mood')} Ø {avg(r.evaluations.map((e) => e.data.mood))} · {t('patient.data.sleep')} Ø{' '}
                    {avg(r.evaluations.map((e) => e.data.sleep))} · {t('patient.data.stress')} Ø {avg(r.evaluations.map((e) => e.data.stress))}
                  </>
                )}
              </p>
            </section>
            <AppointmentsSection appointments={r.patient.appointments} />
            {r.evaluation && <EvaluationSection evaluation={r.evaluation} />}
            {r.timeline && <TimelineSection page={r.timeline} names={r.names} />}
          </>
        )}
      </DataState>
    </main>
  );
}

/** The record's timeline ("Chronik"), all kinds, newest first; a very long one ends with a note where to read on. */
function TimelineSection({ page, names }: { page: TimelinePage; names: HistoryNames }) {
  const { shown, more } = visibleEntries(timelineEntries(page.records, names), page, new Set(TIMELINE_KINDS));
  return (
    <section className="print-section">
      <h2>{t('timeline.title')}</h2>
      {page.failed.length > 0 && <p>{t('timeline.partial', { kinds: page.failed.map((kind) => t(`timeline.kind.${kind}`)).join(', ') })}</p>}
      {shown.length === 0 ? <p>{t('timeline.empty')}</p> : <TimelineList entries={shown} />}
      {more && <p className="print-meta">{t('timeline.printCapped', { n: shown.length })}</p>}
    </section>
  );
}

function MasterSection({ patient, diagnoses, costRate }: { patient: Patient; diagnoses: string[]; costRate: string | null }) {
  const dash = t('patient.none');
  return (
    <section className="print-section">
      <h2>{t('patient.master.title')}</h2>
      <dl className="facts">
        <dt>{t('patient.fields.patientCode')}</dt>
        <dd>{patient.patientCode}</dd>
        <dt>{t('patient.fields.birthDate')}</dt>
        <dd>{patient.birthDate ? dayText(patient.birthDate) : dash}</dd>
        <dt>{t('patient.fields.gender')}</dt>
        <dd>{t(`patient.gender.${patient.gender}`)}</dd>
        <dt>{t('patient.fields.email')}</dt>
        <dd>{patient.email || dash}</dd>
        <dt>{t('patient.fields.phone')}</dt>
        <dd>{patient.phone || dash}</dd>
        <dt>{t('patient.fields.clinic')}</dt>
        <dd>{patient.clinic || dash}</dd>
        <dt>{t('patient.fields.aftercare')}</dt>
        <dd>
          {dayText(patient.aftercareStart)} – {dayText(patient.aftercareEnd)} <AftercareBadge patient={patient} />
        </dd>
        <dt>{t('patient.fields.diagnosisIds')}</dt>
        <dd>{diagnoses.length ? diagnoses.join('; ') : dash}</dd>
        <dt>{t('patient.fields.costRateId')}</dt>
        <dd>{costRate ?? dash}</dd>
      </dl>
    </section>
  );
}

/** The planned contacts, with their length and note. */
function AppointmentsSection({ appointments }: { appointments: Appointment[] }) {
  return (
    <section className="print-section">
      <h2>{t('patient.appointments.title')}</h2>
      {appointments.length === 0 ? (
        <p>{t('print.noAppointments')}</p>
      ) : (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('patient.appointments.startsAt')}</th>
                <th scope="col">{t('patient.appointments.typeLabel')}</th>
                <th scope="col">{t('patient.appointments.note')}</th>
              </tr>
            </thead>
            <tbody>
              {appointments.map((a) => (
                <tr key={a.id}>
                  <td>
                    {dateTime(a.startsAt)} ({t('patient.appointments.minutes', { n: a.durationMinutes })})
                  </td>
                  <td>{t(`patient.appointments.type.${a.type}`)}</td>
                  <td>{a.note}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** The closing assessment as it was last saved. */
function EvaluationSection({ evaluation }: { evaluation: EvaluationForm }) {
  return (
    <section className="print-section">
      <h2>{t('patient.evaluation.title')}</h2>
      <dl className="facts">
        <dt>{t('patient.evaluation.goalAttainment')}</dt>
        <dd>
          {evaluation.goalAttainment === null
            ? t('patient.evaluation.open')
            : `${evaluation.goalAttainment} (${t(`patient.evaluation.goal${evaluation.goalAttainment}`)})`}
        </dd>
        <dt>{t('patient.evaluation.workAbility')}</dt>
        <dd>{evaluation.workAbility ? t(`patient.evaluation.work.${evaluation.workAbility}`) : t('patient.evaluation.open')}</dd>
        <dt>{t('patient.evaluation.returnToWorkDate')}</dt>
        <dd>{evaluation.returnToWorkDate ? dayText(evaluation.returnToWorkDate) : t('patient.none')}</dd>
        <dt>{t('patient.evaluation.followUp')}</dt>
        <dd>{evaluation.followUpRecommended ? t('print.yes') : t('print.no')}</dd>
        <dt>{t('patient.evaluation.summary')}</dt>
        <dd className="pre-line">{evaluation.summary || t('patient.none')}</dd>
      </dl>
    </section>
  );
}

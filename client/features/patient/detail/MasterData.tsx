import { useState } from 'react';
import { replacePatient } from '../../../api/patients.ts';
import type { Patient } from '../../../api/schemas/patients.ts';
import { dayText } from '../../../components/AftercareBadge.tsx';
import { DataState } from '../../../components/DataState.tsx';
import { t } from '../../../lib/i18n.ts';
import { PatientForm, toBody, valuesOf } from '../PatientForm.tsx';
import { useReferenceData } from '../useReferenceData.ts';
import { patientName } from '../../../lib/names.ts';

/** Master data: read view, and an edit form that stays filled when the save fails. */
export function MasterData({ patient, onSaved }: { patient: Patient; onSaved: (patient: Patient) => void }) {
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const refs = useReferenceData();
  const diagnoses = refs.data?.diagnoses ?? [];
  const costRate = refs.data?.costRates.find((r) => r.id === patient.costRateId);
  const dash = t('patient.none');

  return (
    <section aria-labelledby="master-heading" className="card">
      <div className="card-head">
        <h2 id="master-heading">{t('patient.master.title')}</h2>
        {!editing && (
          <button type="button" className="secondary outline" onClick={() => { setEditing(true); setSaved(false); }}>
            {t('patient.master.edit')}
          </button>
        )}
      </div>
      {saved && !editing && <p role="status" className="notice">{t('patient.master.saved')}</p>}
      {editing ? (
        <DataState status={refs.status} error={refs.error} onRetry={refs.reload}>
          {refs.data && (
            <PatientForm
              initial={valuesOf(patient)}
              submitLabel={t('patient.master.save')}
              coaches={refs.data.coaches}
              diagnoses={refs.data.diagnoses}
              costRates={refs.data.costRates}
              onCancel={() => setEditing(false)}
              onSubmit={async (values) => {
                const { data } = await replacePatient(patient.id, toBody(values));
                onSaved(data);
                setEditing(false);
                setSaved(true);
              }}
            />
          )}
        </DataState>
      ) : (
        <dl className="facts">
          <dt>{t('patient.fields.name')}</dt>
          <dd>{patientName(patient)}</dd>
          <dt>{t('patient.fields.birthDate')}</dt>
          <dd>{patient.birthDate ? dayText(patient.birthDate) : dash}</dd>
          <dt>{t('patient.fields.gender')}</dt>
          <dd>{t(`patient.gender.${patient.gender}`)}</dd>
          <dt>{t('patient.fields.email')}</dt>
          <dd>{patient.email ? <a href={`mailto:${patient.email}`}>{patient.email}</a> : dash}</dd>
          <dt>{t('patient.fields.phone')}</dt>
          <dd>{patient.phone ? <a href={`tel:${patient.phone.replace(/[^\d+]/g, '')}`}>{patient.phone}</a> : dash}</dd>
          <dt>{t('patient.fields.clinic')}</dt>
          <dd>{patient.clinic || dash}</dd>
          <dt>{t('patient.fields.aftercare')}</dt>
          <dd>{dayText(patient.aftercareStart)} – {dayText(patient.aftercareEnd)}</dd>
          <dt>{t('patient.fields.diagnosisIds')}</dt>
          <dd>
            {patient.diagnosisIds.length === 0
              ? dash
              : (
                <ul className="plain-list">
                  {patient.diagnosisIds.map((id) => {
                    const d = diagnoses.find((x) => x.id === id);
                    return <li key={id}>{d ? <><code>{d.code}</code> {d.label}</> : t('patient.master.unknownDiagnosis')}</li>;
                  })}
                </ul>
              )}
          </dd>
          <dt>{t('patient.fields.costRateId')}</dt>
          <dd>{costRate?.name ?? (patient.costRateId ? t('patient.master.unknownCostRate') : dash)}</dd>
        </dl>
      )}
    </section>
  );
}

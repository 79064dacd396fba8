import { useState } from 'react';
import { updatePatient } from '../../../api/patients.ts';
import { PatientSchema, type Patient } from '../../../../contract/schemas/patients.ts';
import type { Coach } from '../../../../contract/schemas/coaches.ts';
import type { CostRate } from '../../../../contract/schemas/cost-rates.ts';
import type { Diagnosis } from '../../../../contract/schemas/diagnosis.ts';
import { dayText } from '../../../components/AftercareBadge.tsx';
import { ConflictNotice, changedFields } from '../../../components/ConflictNotice.tsx';
import { DataState } from '../../../components/DataState.tsx';
import { useForm } from '../../../data/useForm.ts';
import { draftStorageKey } from '../../../lib/drafts.ts';
import { t } from '../../../lib/i18n.ts';
import { PatientForm, toBody, valuesOf, type PatientFormValues } from '../PatientForm.tsx';
import { useReferenceData } from '../useReferenceData.ts';
import { patientName } from '../../../lib/names.ts';
import { changedFields as patchOf } from '../../../lib/changes.ts';

const sameForm = (a: Patient, b: Patient) => JSON.stringify(valuesOf(a)) === JSON.stringify(valuesOf(b));

/** The master-data fields as a person reads them, for the list of what another person changed. */
function readableFields(refs: { coaches: Coach[]; diagnoses: Diagnosis[]; costRates: CostRate[] }) {
  const text =
    (key: keyof PatientFormValues) =>
    (p: Patient): string => {
      const v = valuesOf(p);
      if (key === 'gender') return t(`patient.gender.${v.gender}`);
      if (key === 'primaryCoachId') return refs.coaches.find((c) => c.id === v.primaryCoachId)?.lastName ?? v.primaryCoachId;
      if (key === 'costRateId') return refs.costRates.find((r) => r.id === v.costRateId)?.name ?? v.costRateId;
      if (key === 'diagnosisIds') return v.diagnosisIds.map((id) => refs.diagnoses.find((d) => d.id === id)?.code ?? id).join(', ');
      if (key === 'birthDate' || key === 'aftercareStart' || key === 'aftercareEnd') return v[key] ? dayText(v[key]) : '';
      return String(v[key]);
    };
  return (Object.keys(valuesOf()) as (keyof PatientFormValues)[]).map((key) => ({ label: t(`patient.fields.${key}`), text: text(key) }));
}

/** What a master-data draft keeps: the typed values and the version they were typed on (for If-Match after a reload). */
interface MasterDraft {
  values: PatientFormValues;
  base: Patient;
  etag: string | null;
}

/**
 * The edit of the master data: the version it is based on, the values it opens with (a draft's, after a reload),
 * and what starting, cancelling, saving and taking the other version do.
 */
function useMasterDataEdit(patient: Patient, coachId: string, onSaved: (patient: Patient) => void) {
  const editor = useForm<MasterDraft, typeof PatientSchema>({
    draft: coachId ? draftStorageKey(coachId, patient.id, 'master-data') : null,
    schema: PatientSchema,
    sameForForm: sameForm,
  });
  const restored = editor.restored;
  const [editing, setEditing] = useState(restored !== null);
  const [saved, setSaved] = useState(false);
  // The version the open form is based on, and the ETag of the last save (the upstream's word for that version).
  const [base, setBase] = useState<{ patient: Patient; etag: string | null }>(() =>
    restored ? { patient: restored.base, etag: restored.etag } : { patient, etag: null },
  );
  const [initial, setInitial] = useState<PatientFormValues>(() => restored?.values ?? valuesOf(patient));
  const [formKey, setFormKey] = useState(0);
  const [restoredNote, setRestoredNote] = useState(restored !== null);
  const keep = (values: PatientFormValues) => {
    if (JSON.stringify(values) === JSON.stringify(valuesOf(base.patient))) editor.clearDraft();
    else editor.keep({ values, base: base.patient, etag: base.etag });
  };
  const conflict = editor.conflict;

  function start() {
    setBase((b) => ({ patient, etag: b.patient.updatedAt === patient.updatedAt ? b.etag : null }));
    setInitial(valuesOf(patient));
    setFormKey((k) => k + 1);
    editor.dismissConflict();
    setEditing(true);
    setSaved(false);
  }
  /** Cancel is the person's own decision to drop the change. */
  function cancel() {
    editor.discard();
    setRestoredNote(false);
    setEditing(false);
  }
  async function submit(values: PatientFormValues) {
    // Only what was changed against the version the form was opened on.
    const changes = patchOf(toBody(valuesOf(base.patient)), toBody(values));
    const result = await editor.save(base.patient, (ifMatch) => updatePatient(patient.id, changes, ifMatch), base.etag);
    setRestoredNote(false);
    setBase({ patient: result.data, etag: result.etag ?? null });
    onSaved(result.data);
    setEditing(false);
    setSaved(true);
  }
  function takeTheirs() {
    if (!conflict) return;
    setBase({ patient: conflict.current, etag: conflict.tag });
    setInitial(valuesOf(conflict.current));
    editor.clearDraft();
    onSaved(conflict.current);
    editor.dismissConflict();
    setFormKey((k) => k + 1);
  }
  return { editing, saved, base, initial, formKey, restoredNote, conflict, keep, start, cancel, submit, takeTheirs };
}

/**
 * Master data: read view, and an edit form that stays filled when the save fails. The save names the version the
 * form was opened with (If-Match); when someone else saved in between, the form keeps what was typed and shows
 * their change, to be kept or overwritten knowingly. What is typed is a draft of this coach and patient until the
 * server confirms it: a reload or leaving the tab reopens the form with it (the leave guard asks first).
 * The save is a PATCH of the fields the coach changed: an API whose PUT replaces the whole record (LoopBack) would
 * otherwise drop the code, the appointments and the follow-up day, and a colleague's change to another field stays.
 */
export function MasterData({ patient, coachId, onSaved }: { patient: Patient; coachId: string; onSaved: (patient: Patient) => void }) {
  const edit = useMasterDataEdit(patient, coachId, onSaved);
  const { editing, saved, base, initial, formKey, restoredNote, conflict } = edit;
  const refs = useReferenceData();

  return (
    <section aria-labelledby="master-heading" className="card">
      <div className="card-head">
        <h2 id="master-heading">{t('patient.master.title')}</h2>
        {!editing && (
          <button type="button" className="secondary outline" onClick={edit.start}>
            {t('patient.master.edit')}
          </button>
        )}
      </div>
      {saved && !editing && (
        <p role="status" className="notice">
          {t('patient.master.saved')}
        </p>
      )}
      {editing && restoredNote && (
        <p role="status" className="notice">
          {t('unsaved.restored')}
        </p>
      )}
      {editing ? (
        <DataState status={refs.status} error={refs.error} onRetry={refs.reload}>
          {refs.data && (
            <PatientForm
              key={formKey}
              initial={initial}
              onChange={edit.keep}
              submitLabel={t('patient.master.save')}
              coaches={refs.data.coaches}
              diagnoses={refs.data.diagnoses}
              costRates={refs.data.costRates}
              onCancel={edit.cancel}
              onSubmit={edit.submit}
              notice={
                conflict && <ConflictNotice changes={changedFields(base.patient, conflict.current, readableFields(refs.data))} onTakeTheirs={edit.takeTheirs} />
              }
            />
          )}
        </DataState>
      ) : (
        <MasterDataFacts patient={patient} diagnoses={refs.data?.diagnoses ?? []} costRates={refs.data?.costRates ?? []} />
      )}
    </section>
  );
}

/** The master data as read, not edited. */
function MasterDataFacts({ patient, diagnoses, costRates }: { patient: Patient; diagnoses: Diagnosis[]; costRates: CostRate[] }) {
  const dash = t('patient.none');
  const costRate = costRates.find((r) => r.id === patient.costRateId);
  return (
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
      <dd>
        {dayText(patient.aftercareStart)} – {dayText(patient.aftercareEnd)}
      </dd>
      <dt>{t('patient.fields.diagnosisIds')}</dt>
      <dd>
        {patient.diagnosisIds.length === 0 ? (
          dash
        ) : (
          <ul className="plain-list">
            {patient.diagnosisIds.map((id) => {
              const d = diagnoses.find((x) => x.id === id);
              return (
                <li key={id}>
                  {d ? (
                    <>
                      <code>{d.code}</code> {d.label}
                    </>
                  ) : (
                    t('patient.master.unknownDiagnosis')
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </dd>
      <dt>{t('patient.fields.costRateId')}</dt>
      <dd>{costRate?.name ?? (patient.costRateId ? t('patient.master.unknownCostRate') : dash)}</dd>
    </dl>
  );
}

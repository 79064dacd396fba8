import { Link, useLocation } from 'wouter';
import { useForm } from '../../data/useForm.ts';
import { createPatient } from '../../api/patients.ts';
import { DataState } from '../../components/DataState.tsx';
import { creationErrorText } from '../../components/errorText.ts';
import { t } from '../../lib/i18n.ts';
import { user } from '../../state/session.ts';
import { can } from '../../domain/permissions.ts';
import { systemSettings } from '../../state/settings.ts';
import { PatientForm, toBody, valuesOf, type PatientFormValues } from './PatientForm.tsx';
import { draftStorageKey } from '../../lib/drafts.ts';
import { useReferenceData } from './useReferenceData.ts';

export function PatientCreate() {
  if (!can('createPatients', user.value, systemSettings.value)) {
    return (
      <section>
        <h1>{t('patient.create.title')}</h1>
        <p role="alert">{t('patient.create.notAllowed')}</p>
        <Link href="/patient">{t('patient.backToList')}</Link>
      </section>
    );
  }
  return <CreateForm />;
}

/** A new patient's master data is a draft of this coach until the server has created the patient. */
function CreateForm() {
  const [, navigate] = useLocation();
  const refs = useReferenceData();
  const me = user.value?.id ?? '';
  // Only administrators place a new patient with another coach; everyone else creates into their own caseload.
  const chooseCoach = can('manageAllPatients');
  const editor = useForm<PatientFormValues>({ draft: me ? draftStorageKey(me, 'new-patient', 'master-data') : null });
  const empty = { ...valuesOf(null), primaryCoachId: me };
  const initial = editor.restored ?? empty;
  const keep = (values: PatientFormValues) => (JSON.stringify(values) === JSON.stringify(empty) ? editor.clearDraft() : editor.keep(values));
  return (
    <section>
      <p>
        <Link href="/patient">{t('patient.backToList')}</Link>
      </p>
      <h1>{t('patient.create.title')}</h1>
      <p className="muted">{t('patient.create.hint')}</p>
      {editor.restored && (
        <p role="status" className="notice">
          {t('unsaved.restored')}
        </p>
      )}
      <DataState status={refs.status} error={refs.error} onRetry={refs.reload}>
        {refs.data && (
          <PatientForm
            initial={initial}
            submitLabel={t('patient.create.submit')}
            coaches={refs.data.coaches}
            diagnoses={refs.data.diagnoses}
            costRates={refs.data.costRates}
            onChange={keep}
            chooseCoach={chooseCoach}
            describeError={creationErrorText}
            onCancel={() => {
              editor.clearDraft();
              navigate('/patient');
            }}
            onSubmit={async (values) => {
              const { data } = await createPatient(toBody(chooseCoach ? values : { ...values, primaryCoachId: me }));
              editor.clearDraft();
              navigate(`/patient/${encodeURIComponent(data.id)}?created=1`);
            }}
          />
        )}
      </DataState>
    </section>
  );
}

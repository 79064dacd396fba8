import { Link, useLocation } from 'wouter';
import { createPatient } from '../../api/patients.ts';
import { DataState } from '../../components/DataState.tsx';
import { t } from '../../lib/i18n.ts';
import { user } from '../../state/session.ts';
import { canCreatePatients } from '../../components/permissions.ts';
import { PatientForm, toBody, valuesOf } from './PatientForm.tsx';
import { useReferenceData } from './useReferenceData.ts';

export function PatientCreate() {
  if (!canCreatePatients()) {
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

function CreateForm() {
  const [, navigate] = useLocation();
  const refs = useReferenceData();
  const initial = { ...valuesOf(null), primaryCoachId: user.value?.id ?? '' };
  return (
    <section>
      <p><Link href="/patient">{t('patient.backToList')}</Link></p>
      <h1>{t('patient.create.title')}</h1>
      <p className="muted">{t('patient.create.hint')}</p>
      <DataState status={refs.status} error={refs.error} onRetry={refs.reload}>
        {refs.data && (
          <PatientForm
            initial={initial}
            submitLabel={t('patient.create.submit')}
            coaches={refs.data.coaches}
            diagnoses={refs.data.diagnoses}
            costRates={refs.data.costRates}
            onCancel={() => navigate('/patient')}
            onSubmit={async (values) => {
              const { data } = await createPatient(toBody(values));
              navigate(`/patient/${encodeURIComponent(data.id)}?created=1`);
            }}
          />
        )}
      </DataState>
    </section>
  );
}

import { t } from '../../lib/i18n.ts';

export default function PatientsPage() {
  return (
    <section>
      <h1>{t('patient.title')}</h1>
    </section>
  );
}

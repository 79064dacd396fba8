import { t } from '../../lib/i18n.ts';

export default function PrintPatientPage() {
  return (
    <section>
      <h1>{t('print.patientTitle')}</h1>
    </section>
  );
}

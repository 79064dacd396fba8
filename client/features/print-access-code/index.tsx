import { t } from '../../lib/i18n.ts';

export default function PrintAccessCodePage() {
  return (
    <section>
      <h1>{t('print.accessCodeTitle')}</h1>
    </section>
  );
}

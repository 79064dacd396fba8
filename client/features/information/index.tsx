import { t } from '../../lib/i18n.ts';

export default function InformationPage() {
  return (
    <section>
      <h1>{t('information.title')}</h1>
    </section>
  );
}

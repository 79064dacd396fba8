import { t } from '../../lib/i18n.ts';

export default function NewsDashboardPage() {
  return (
    <section>
      <h1>{t('newsDashboard.title')}</h1>
    </section>
  );
}

import { t } from '../../lib/i18n.ts';

export default function DashboardPage() {
  return (
    <section>
      <h1>{t('dashboard.title')}</h1>
    </section>
  );
}

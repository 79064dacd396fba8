import { t } from '../../lib/i18n.ts';

export default function StatsPage() {
  return (
    <section>
      <h1>{t('stats.title')}</h1>
    </section>
  );
}

import { t } from '../../lib/i18n.ts';

export default function AdminPage() {
  return (
    <section>
      <h1>{t('admin.title')}</h1>
    </section>
  );
}

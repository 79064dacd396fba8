import { t } from '../../lib/i18n.ts';

export default function ExportPage() {
  return (
    <section>
      <h1>{t('export.title')}</h1>
    </section>
  );
}

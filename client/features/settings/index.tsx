import { t } from '../../lib/i18n.ts';

export default function SettingsPage() {
  return (
    <section>
      <h1>{t('settings.title')}</h1>
    </section>
  );
}

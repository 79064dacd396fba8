import { t } from '../../lib/i18n.ts';

export default function CreateAccessPage() {
  return (
    <section>
      <h1>{t('createAccess.title')}</h1>
    </section>
  );
}

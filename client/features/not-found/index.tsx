import { Link } from 'wouter';
import { t } from '../../lib/i18n.ts';

/** Last route: any path nobody else matched. */
export default function NotFound() {
  return (
    <section className="not-found">
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.text')}</p>
      <Link href="/dashboard">{t('notFound.back')}</Link>
    </section>
  );
}

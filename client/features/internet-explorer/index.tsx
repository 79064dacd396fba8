import { t } from '../../lib/i18n.ts';

/** In-app twin of the static unsupported-browser page (docs/product.md#purpose), for a direct visit to the route. */
export default function InternetExplorer() {
  return (
    <main className="auth-page">
      <article className="auth-card">
        <h1>{t('unsupported.title')}</h1>
        <p>{t('unsupported.text')}</p>
      </article>
    </main>
  );
}

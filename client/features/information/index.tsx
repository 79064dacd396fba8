import { t } from '../../lib/i18n.ts';
import { HelpSection } from './HelpSection.tsx';
import { MaterialsSection } from './MaterialsSection.tsx';
import { VersionSection } from './VersionSection.tsx';
import './information.css';

/** "Hilfe & Unterlagen & Infos": documents to download, help, and the version. */
export default function InformationPage() {
  return (
    <section class="information-page">
      <h1>{t('information.title')}</h1>
      <div class="information-grid">
        <article>
          <MaterialsSection />
        </article>
        <div>
          <article>
            <HelpSection />
          </article>
          <article>
            <VersionSection />
          </article>
        </div>
      </div>
    </section>
  );
}

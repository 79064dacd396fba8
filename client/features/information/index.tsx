import { useAreaPath } from '../../lib/area-path.ts';
import { t } from '../../lib/i18n.ts';
import { GuideChapter } from './guide/GuideChapter.tsx';
import { GuideContents } from './guide/GuideContents.tsx';
import { HelpSection } from './HelpSection.tsx';
import { MaterialsSection } from './MaterialsSection.tsx';
import { VersionSection } from '../../components/VersionSection.tsx';
import './information.css';

/**
 * "Hilfe & Unterlagen & Infos": the coach guide (its chapters are pages of this area, /information/guide/<chapter>),
 * documents to download, help, and the version.
 */
export default function InformationPage() {
  const [section, chapter, ...below] = useAreaPath().split('/');
  if (section === 'guide' && chapter && below.length === 0) return <GuideChapter id={chapter} />;
  return (
    <section className="information-page">
      <h1>{t('information.title')}</h1>
      <div className="information-grid">
        <div>
          <article>
            <GuideContents />
          </article>
          <article>
            <MaterialsSection />
          </article>
        </div>
        <div>
          <article>
            <HelpSection />
          </article>
          <article>
            <VersionSection texts="information" />
          </article>
        </div>
      </div>
    </section>
  );
}

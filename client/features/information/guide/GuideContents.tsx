import { Link } from 'wouter';
import { t } from '../../../lib/i18n.ts';
import { user } from '../../../state/session.ts';
import { chapterHref, chaptersFor, chapterText } from './chapters.ts';

/** The guide's table of contents on the help page: one link per chapter, with its first sentence. */
export function GuideContents() {
  const me = user.value;
  return (
    <section aria-labelledby="information-guide-heading" className="guide-contents">
      <h2 id="information-guide-heading">{t('guide.title')}</h2>
      <p>{t('guide.intro')}</p>
      <nav aria-label={t('guide.contents')}>
        <ol>
          {chaptersFor(me).map((chapter) => (
            <li key={chapter.id}>
              <Link href={chapterHref(chapter)}>{chapterText(chapter, 'title', me)}</Link>
              <small className="muted">{chapterText(chapter, 'intro', me)}</small>
            </li>
          ))}
        </ol>
      </nav>
    </section>
  );
}

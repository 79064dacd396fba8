import '../../../components/records.css';
import { Link } from 'wouter';
import type { Freshness } from '../../../domain/freshness.ts';
import { t } from '../../../lib/i18n.ts';
import { user } from '../../../state/session.ts';
import { chapterHref, chaptersFor, chapterText } from './chapters.ts';

const LEVELS: Freshness[] = ['green', 'yellow', 'red', 'grey'];

/** The four traffic-light levels as the lists show them (dot and words), each with what to do. */
function FreshnessLevels() {
  return (
    <section aria-labelledby="guide-levels-heading">
      <h2 id="guide-levels-heading">{t('guide.freshness.levels')}</h2>
      <ul className="guide-levels">
        {LEVELS.map((level) => (
          <li key={level}>
            <span className={`freshness freshness-${level}`}>
              <span className="freshness-dot" aria-hidden="true" />
              <span>{t(`freshness.level.${level}`)}</span>
            </span>
            <span>{t(`guide.freshness.${level}`)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** One chapter of the coach guide as a page of the app, with the way back and on. */
export function GuideChapter({ id }: { id: string }) {
  const me = user.value;
  const chapters = chaptersFor(me);
  const at = chapters.findIndex((chapter) => chapter.id === id);
  const chapter = chapters[at];
  const back = (
    <p className="back-link">
      <Link href="/information">{t('guide.back')}</Link>
    </p>
  );
  if (!chapter) {
    return (
      <section className="guide-chapter">
        {back}
        <h1>{t('guide.title')}</h1>
        <p role="status">{t('guide.notFound')}</p>
      </section>
    );
  }
  const text = (part: string) => chapterText(chapter, part, me);
  const previous = chapters[at - 1];
  const next = chapters[at + 1];
  return (
    <article className="guide-chapter">
      {back}
      <p className="muted guide-kicker">{t('guide.title')}</p>
      <h1>{text('title')}</h1>
      <p className="guide-intro">{text('intro')}</p>
      {chapter.id === 'freshness' && <FreshnessLevels />}
      {chapter.id === 'export' && <p>{text('kinds')}</p>}
      <h2>{t('guide.steps')}</h2>
      <ol className="guide-steps">
        {Array.from({ length: chapter.steps }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the numbered steps of a chapter, fixed text
          <li key={i}>{text(`step${i + 1}`)}</li>
        ))}
      </ol>
      <p className="guide-tip">{text('tip')}</p>
      <nav className="guide-pager" aria-label={t('guide.pager')}>
        {previous && <Link href={chapterHref(previous)}>{t('guide.previous', { title: chapterText(previous, 'title', me) })}</Link>}
        {next && (
          <Link href={chapterHref(next)} className="guide-next">
            {t('guide.next', { title: chapterText(next, 'title', me) })}
          </Link>
        )}
      </nav>
    </article>
  );
}

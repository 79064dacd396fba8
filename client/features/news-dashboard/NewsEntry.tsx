import { useEffect, useId, useRef } from 'react';
import type { NewsItem } from '../../../contract/schemas/news.ts';
import { useRevealed } from '../../components/Settle.tsx';
import { formatDate, t } from '../../lib/i18n.ts';

interface Props {
  item: NewsItem;
  open: boolean;
  /** Move focus here when it renders open (the item asked for by ?id=). */
  focusOnOpen: boolean;
  onToggle: () => void;
  onMarkRead: () => void;
  onMarkUnread: () => void;
}

function publishedText(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : formatDate(date, { dateStyle: 'medium' });
}

/** One news item: the title is a disclosure button, the text shows when open. */
export function NewsEntry({ item, open, focusOnOpen, onToggle, onMarkRead, onMarkUnread }: Props) {
  const bodyId = useId();
  const button = useRef<HTMLButtonElement>(null);
  // Once the page shows: while it is still hidden behind its loading line nothing can take focus.
  const revealed = useRevealed();
  useEffect(() => {
    if (open && focusOnOpen && revealed) {
      button.current?.focus();
      button.current?.scrollIntoView?.({ block: 'nearest' });
    }
  }, [open, focusOnOpen, revealed]);
  const published = publishedText(item.publishedAt);

  return (
    <li className={item.read ? 'news-entry' : 'news-entry news-unread'}>
      <article>
        <h2 className="news-entry-title">
          <button ref={button} type="button" className="news-toggle" aria-expanded={open} aria-controls={bodyId} onClick={onToggle}>
            <span className="news-chevron" aria-hidden="true" />
            {!item.read && <span className="news-badge">{t('newsDashboard.unreadBadge')}</span>} <span className="news-title-text">{item.title}</span>
          </button>
        </h2>
        {published && (
          <p className="news-date">
            <time dateTime={item.publishedAt}>{published}</time>
          </p>
        )}
        <div id={bodyId} hidden={!open} className="news-body">
          {item.body
            .split(/\n{2,}/)
            .filter((paragraph) => paragraph.trim() !== '')
            .map((paragraph, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the paragraphs of one news text, never reordered
              <p key={i}>{paragraph}</p>
            ))}
        </div>
        <div className="news-actions">
          {item.read ? (
            <button type="button" className="secondary outline" aria-label={t('newsDashboard.markUnreadNamed', { title: item.title })} onClick={onMarkUnread}>
              {t('newsDashboard.markUnread')}
            </button>
          ) : (
            <button type="button" className="secondary outline" aria-label={t('newsDashboard.markReadNamed', { title: item.title })} onClick={onMarkRead}>
              {t('newsDashboard.markRead')}
            </button>
          )}
        </div>
      </article>
    </li>
  );
}

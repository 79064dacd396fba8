import { useEffect, useRef, useState } from 'react';
import { useSearch, useLocation } from 'wouter';
import { getNews } from '../../api/news.ts';
import { DataState } from '../../components/DataState.tsx';
import { errorText } from '../../components/errorText.ts';
import { useQuery } from '../../data/useQuery.ts';
import { t, formatNumber } from '../../lib/i18n.ts';
import { markRead, markUnread, news, unreadNews } from '../../state/news.ts';
import { NewsEntry } from './NewsEntry.tsx';
import './news-dashboard.css';

type Filter = 'all' | 'unread';

/**
 * All news, unread ones marked. The list reads the shared `news` signal, so the top-bar badge and this
 * page always agree; this page only (re)loads it so that it can show loading and error states.
 */
export default function NewsDashboardPage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const requestedId = new URLSearchParams(search).get('id');
  const [openId, setOpenId] = useState<string | null>(requestedId);
  const [filter, setFilter] = useState<Filter>('all');
  // Not useMutation: marking read is optimistic and per item; several may be under way, none blocks another.
  const [actionError, setActionError] = useState<string | null>(null);

  const resource = useQuery(async () => {
    const { data } = await getNews();
    news.value = data;
    return { data: true };
  }, 'news');

  const items = news.value;
  const unreadCount = unreadNews.value.length;
  const requestedMissing = resource.status === 'ready' && requestedId !== null && !items.some((n) => n.id === requestedId);

  const change = (id: string, read: boolean) => {
    setActionError(null);
    (read ? markRead(id) : markUnread(id)).catch((error: unknown) => setActionError(errorText(error)));
  };

  useOpenRequested(
    resource.status === 'ready',
    requestedId,
    (id) => {
      setOpenId(id);
      setFilter('all');
    },
    change,
  );

  const toggle = (id: string) => {
    const opening = openId !== id;
    setOpenId(opening ? id : null);
    const item = items.find((n) => n.id === id);
    if (opening && item && !item.read) change(id, true);
    // Keep the address in step so a reload or a shared link opens the same item.
    navigate(opening ? `/news-dashboard?id=${encodeURIComponent(id)}` : '/news-dashboard', { replace: true });
  };

  const shown = filter === 'unread' ? items.filter((n) => !n.read || n.id === openId) : items;
  const sorted = [...shown].sort((a, b) => b.publishedAt.localeCompare(a.publishedAt));

  return (
    <section className="news-dashboard">
      <h1>{t('newsDashboard.title')}</h1>
      <p aria-live="polite">{unreadCount === 0 ? t('newsDashboard.noneUnread') : t('newsDashboard.unreadCount', { n: formatNumber(unreadCount) })}</p>
      <FilterButtons filter={filter} onFilter={setFilter} />
      {actionError && (
        <p role="alert" className="form-error">
          {t('newsDashboard.changeFailed')} {actionError}
        </p>
      )}
      {requestedMissing && <p role="status">{t('newsDashboard.notFound')}</p>}
      <DataState
        status={resource.status}
        error={resource.error}
        onRetry={resource.reload}
        hasData={items.length > 0}
        empty={sorted.length === 0}
        emptyText={filter === 'unread' ? t('newsDashboard.emptyUnread') : t('newsDashboard.empty')}
      >
        <ul className="news-list">
          {sorted.map((item) => (
            <NewsEntry
              key={item.id}
              item={item}
              open={openId === item.id}
              focusOnOpen={item.id === requestedId}
              onToggle={() => toggle(item.id)}
              onMarkRead={() => change(item.id, true)}
              onMarkUnread={() => change(item.id, false)}
            />
          ))}
        </ul>
      </DataState>
    </section>
  );
}

/** "Alle" or only the unread ones. */
function FilterButtons({ filter, onFilter }: { filter: Filter; onFilter: (filter: Filter) => void }) {
  return (
    <div role="group" aria-label={t('newsDashboard.filterLabel')} className="news-filter">
      <button type="button" className={filter === 'all' ? '' : 'secondary outline'} aria-pressed={filter === 'all'} onClick={() => onFilter('all')}>
        {t('newsDashboard.filterAll')}
      </button>
      <button type="button" className={filter === 'unread' ? '' : 'secondary outline'} aria-pressed={filter === 'unread'} onClick={() => onFilter('unread')}>
        {t('newsDashboard.filterUnread')}
      </button>
    </div>
  );
}

/**
 * ?id=<id> (from the top-bar news menu): once the news are there, that item opens and is marked read, once per id.
 */
function useOpenRequested(ready: boolean, requestedId: string | null, open: (id: string) => void, change: (id: string, read: boolean) => void) {
  const handled = useRef<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the news arrive or the requested id changes; handled.current makes it once per id
  useEffect(() => {
    if (!ready || !requestedId || handled.current === requestedId) return;
    handled.current = requestedId;
    const item = news.value.find((n) => n.id === requestedId);
    if (!item) return;
    open(requestedId);
    if (!item.read) change(item.id, true);
  }, [ready, requestedId]);
}

import '../../components/records.css';
import './dashboard.css';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import type { Patient } from '../../../contract/schemas/patients.ts';
import { dayText } from '../../components/AftercareBadge.tsx';
import { DataState } from '../../components/DataState.tsx';
import { daysUntil } from '../../domain/freshness.ts';
import { formatCount } from '../../components/list-count.ts';
import { useQuery } from '../../data/useQuery.ts';
import { prefetchAreas, whenIdle } from '../../lib/areas.ts';
import { formatDate, t } from '../../lib/i18n.ts';
import { newsLoading, unreadNews } from '../../state/news.ts';
import { user } from '../../state/session.ts';
import { coachName, patientName } from '../../lib/names.ts';
import { LEVELS, loadCaseload, loadFeeds, type Caseload as CaseloadData, type Feeds } from './load.ts';
import { PatientSearchBox } from '../../components/patient-search/PatientSearchBox.tsx';
import { dashboardKind } from '../../domain/permissions.ts';
import HealthManagerDashboard from './HealthManagerDashboard.tsx';
import { allText, moreThanShown, patientLink } from './more.ts';
import { MyDay } from './my-day/MyDay.tsx';

const dateTime = (value: string) => formatDate(value, { dateStyle: 'medium', timeStyle: 'short' });

/** The start page: a health manager's own (HealthManagerDashboard.tsx), or the coach's below. */
export default function DashboardPage() {
  return dashboardKind() === 'healthManager' ? <HealthManagerDashboard /> : <CoachDashboard />;
}

/**
 * The coach's start page. Its figures come in at most 4 calls (load.ts). The cards appear together once the
 * caseload and the news have arrived, so no card pushes another down while the coach reads (layout shift);
 * only the two comment feeds, last on the page, fill in after that.
 */
function CoachDashboard() {
  const [now] = useState(() => new Date());
  const me = user.value;
  const caseload = useQuery(async (signal) => ({ data: await loadCaseload(now, signal) }), 'caseload');
  const feeds = useQuery(async (signal) => ({ data: await loadFeeds(signal) }), 'feeds');
  // The news gate only the first showing: the shell reloads them when the line comes back, and taking the cards
  // down then would throw away what the worklist shows (a call just recorded, its "Rückgängig") and the scroll.
  const [shown, setShown] = useState(false);
  const ready = shown || (!!caseload.data && !newsLoading.value);
  useEffect(() => {
    if (ready) setShown(true);
  }, [ready]);
  // Most visits continue to a patient: their area is fetched while the coach reads, once the line is free.
  const loaded = ready && feeds.status !== 'loading';
  useEffect(() => (loaded ? whenIdle(() => prefetchAreas(['patient'])) : undefined), [loaded]);
  return (
    <section className={ready ? 'dashboard' : 'dashboard dashboard-loading'}>
      <header className="page-header">
        <h1>{t('dashboard.title')}</h1>
        {me && <p className="muted">{t('dashboard.greeting', { name: me.firstName || coachName(me) })}</p>}
      </header>
      {/* The same search as "/" opens on every screen. */}
      <section className="card dashboard-search" aria-label={t('search.title')}>
        <PatientSearchBox id="dashboard-search" />
      </section>
      <DataState status={ready ? 'ready' : caseload.status === 'error' ? 'error' : 'loading'} error={caseload.error} onRetry={caseload.reload}>
        {caseload.data && (
          <>
            <MyDay data={caseload.data} now={now} />
            <Caseload data={caseload.data} />
            <div className="dashboard-grid">
              <EndingSoon data={caseload.data} now={now} />
              <UnreadNews />
              <RecentFeed
                id="recent-comments"
                title={t('dashboard.comments.title')}
                emptyText={t('dashboard.comments.empty')}
                feeds={feeds}
                items={(f) => f.comments.map((c) => ({ ...c, author: c.authorName }))}
              />
              <RecentFeed
                id="recent-external"
                title={t('dashboard.external.title')}
                emptyText={t('dashboard.external.empty')}
                feeds={feeds}
                items={(f) => f.external}
              />
            </div>
          </>
        )}
      </DataState>
    </section>
  );
}

function Caseload({ data }: { data: CaseloadData }) {
  return (
    <section aria-labelledby="caseload-heading" className="card caseload">
      <h2 id="caseload-heading">{t('dashboard.caseload.title')}</h2>
      <ul className="caseload-tiles">
        <li>
          <Link href="/patient?status=active" className="tile">
            <span className="tile-number">{formatCount(data.total)}</span>
            <span className="tile-label">{t('dashboard.caseload.active')}</span>
          </Link>
        </li>
        {LEVELS.map((level) => (
          <li key={level}>
            <Link href={`/patient?status=active&last=${level}`} className={`tile tile-${level}`}>
              <span className="tile-number">
                <span className={`freshness freshness-${level}`}>
                  <span className="freshness-dot" aria-hidden="true" />
                </span>
                {formatCount(data.levels[level])}
              </span>
              <span className="tile-label">{t(`freshness.level.${level}`)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

function EndingSoon({ data, now }: { data: CaseloadData; now: Date }) {
  return (
    <section aria-labelledby="ending-heading" className="card">
      <h2 id="ending-heading">{t('dashboard.ending.title')}</h2>
      {data.ending.length === 0 ? (
        <p className="data-state data-state-empty">{t('dashboard.ending.empty')}</p>
      ) : (
        <ul className="row-list">
          {data.ending.map((p: Patient) => {
            const days = daysUntil(p.aftercareEnd, now) ?? 0;
            return (
              <li key={p.id}>
                <span>
                  <Link href={patientLink(p.id, 'evaluation')}>{patientName(p)}</Link>{' '}
                  <small className="muted">{t('dashboard.ending.until', { date: dayText(p.aftercareEnd) })}</small>
                </span>
                <span className="badge badge-ending">
                  {days === 0 ? t('dashboard.ending.today') : days === 1 ? t('dashboard.ending.tomorrow') : t('dashboard.ending.inDays', { n: days })}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      {moreThanShown(data.endingTotal, data.ending.length) && (
        <p>
          <Link href="/patient?status=ending&sort=aftercareEnd">{allText('dashboard.ending.all', data.endingTotal)}</Link>
        </p>
      )}
    </section>
  );
}

function UnreadNews() {
  const items = unreadNews.value;
  return (
    <section aria-labelledby="news-heading" className="card">
      <h2 id="news-heading">{t('dashboard.news.title')}</h2>
      {items.length === 0 ? (
        <p className="muted">{t('dashboard.news.empty')}</p>
      ) : (
        <ul className="row-list">
          {items.slice(0, 5).map((item) => (
            <li key={item.id}>
              <span>
                <Link href={`/news-dashboard?id=${encodeURIComponent(item.id)}`}>{item.title}</Link>{' '}
                <small className="muted">{formatDate(item.publishedAt)}</small>
              </span>
            </li>
          ))}
        </ul>
      )}
      <p>
        <Link href="/news-dashboard">{t('dashboard.news.all')}</Link>
      </p>
    </section>
  );
}

interface FeedItem {
  id: string;
  patientId: string;
  createdAt: string;
  text: string;
  author: string;
}

interface FeedProps {
  /** Prefix of the heading id. */
  id: string;
  title: string;
  emptyText: string;
  feeds: ReturnType<typeof useQuery<Feeds>>;
  items: (feeds: Feeds) => FeedItem[];
}

/** Newest comments (the coaches' own or external ones), each with the patient it is about. */
function RecentFeed({ id, title, emptyText, feeds, items }: FeedProps) {
  const list = feeds.data ? items(feeds.data) : undefined;
  return (
    <section aria-labelledby={`${id}-heading`} className="card">
      <h2 id={`${id}-heading`}>{title}</h2>
      <DataState status={feeds.status} error={feeds.error} onRetry={feeds.reload} hasData={!!feeds.data} empty={list?.length === 0} emptyText={emptyText}>
        <ul className="feed">
          {(list ?? []).map((c) => {
            const p = feeds.data?.patients.get(c.patientId);
            return (
              <li key={c.id}>
                <p className="feed-meta">
                  <Link href={patientLink(c.patientId, 'comments')}>{p ? patientName(p) : t('dashboard.unknownPatient')}</Link>
                  {c.author ? ` · ${c.author}` : ''}
                  {' · '}
                  <time dateTime={c.createdAt}>{dateTime(c.createdAt)}</time>
                </p>
                <p className="feed-text">{c.text}</p>
              </li>
            );
          })}
        </ul>
      </DataState>
    </section>
  );
}

import '../../components/records.css';
import './dashboard.css';
import { Link } from 'wouter';
import { listComments } from '../../api/comments.ts';
import { listExternalComments } from '../../api/external-comments.ts';
import { listPatients } from '../../api/patients.ts';
import { countRows, listCount, listPage, type ListCount } from '../../api/paging.ts';
import type { Patient } from '../../api/schemas/patients.ts';
import { dayText } from '../../components/AftercareBadge.tsx';
import { DataState } from '../../components/DataState.tsx';
import { FreshnessBadge } from '../../components/FreshnessBadge.tsx';
import { formatCount } from '../../components/list-count.ts';
import { byAttention, daysUntil, type Freshness } from '../../components/freshness.ts';
import { useResource } from '../../components/useResource.ts';
import { formatDate, formatNumber, t } from '../../lib/i18n.ts';
import { unreadNews } from '../../state/news.ts';
import { user } from '../../state/session.ts';
import { activeWhere, attentionFilter, endingSoonFilter, levelWhere } from './queries.ts';
import { coachName, patientName } from '../../lib/names.ts';
import { PatientSearchBox } from '../../components/patient-search/PatientSearchBox.tsx';

const LEVELS: Freshness[] = ['red', 'yellow', 'grey', 'green'];
const ATTENTION_SHOWN = 8;
/** Without X-Total-Count a tile counts up to this many and then says "mehr als 99". */
const COUNT_CAP = 99;

const patientLink = (id: string, tab?: string) => `/patient/${encodeURIComponent(id)}${tab ? `?tab=${tab}` : ''}`;
const dateTime = (value: string) => formatDate(value, { dateStyle: 'medium', timeStyle: 'short' });

export default function DashboardPage() {
  const now = new Date();
  const me = user.value;
  return (
    <section className="dashboard">
      <header className="page-header">
        <h1>{t('dashboard.title')}</h1>
        {me && <p className="muted">{t('dashboard.greeting', { name: me.firstName || coachName(me) })}</p>}
      </header>
      {/* The same search as "/" opens on every screen. */}
      <section className="card dashboard-search" aria-label={t('search.title')}>
        <PatientSearchBox id="dashboard-search" />
      </section>
      <Caseload now={now} />
      <div className="dashboard-grid">
        <Attention now={now} />
        <EndingSoon now={now} />
        <UnreadNews />
        <RecentFeed
          id="recent-comments"
          title={t('dashboard.comments.title')}
          emptyText={t('dashboard.comments.empty')}
          load={(signal) => listComments({ order: 'createdAt DESC', limit: 5 }, signal)}
          author={(c) => c.authorName}
        />
        <RecentFeed
          id="recent-external"
          title={t('dashboard.external.title')}
          emptyText={t('dashboard.external.empty')}
          load={(signal) => listExternalComments({ order: 'createdAt DESC', limit: 5 }, signal)}
          author={(c) => c.author}
        />
      </div>
    </section>
  );
}

function Caseload({ now }: { now: Date }) {
  const counts = useResource(async (signal) => {
    const active = activeWhere(now);
    const count = (where: Record<string, unknown>) => countRows((range) => listPatients({ where, ...range }, signal), COUNT_CAP);
    const [total, ...levels] = await Promise.all([count(active), ...LEVELS.map((level) => count({ and: [active, levelWhere(level, now)] }))]);
    return { data: { total, levels: Object.fromEntries(LEVELS.map((l, i) => [l, levels[i]])) as Record<Freshness, ListCount> } };
  }, 'caseload');
  const none = { count: 0, exact: true };
  const levels = counts.data?.levels ?? { red: none, yellow: none, grey: none, green: none };
  return (
    <section aria-labelledby="caseload-heading" className="card caseload">
      <h2 id="caseload-heading">{t('dashboard.caseload.title')}</h2>
      <DataState status={counts.status} error={counts.error} onRetry={counts.reload}>
        {counts.data && (
          <ul className="caseload-tiles">
            <li>
              <Link href="/patient?status=active" className="tile">
                <span className="tile-number">{formatCount(counts.data.total)}</span>
                <span className="tile-label">{t('dashboard.caseload.active')}</span>
              </Link>
            </li>
            {LEVELS.map((level) => (
              <li key={level}>
                <Link href={`/patient?status=active&last=${level}`} className={`tile tile-${level}`}>
                  <span className="tile-number">
                    <span className={`freshness freshness-${level}`}><span className="freshness-dot" aria-hidden="true" /></span>
                    {formatCount(levels[level])}
                  </span>
                  <span className="tile-label">{t(`freshness.level.${level}`)}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </DataState>
    </section>
  );
}

function Attention({ now }: { now: Date }) {
  const list = useResource(async (signal) => {
    const filter = attentionFilter(now);
    const result = await listPage((range) => listPatients({ ...filter, ...range }, signal), filter.limit!);
    return { data: byAttention(result.data, (p) => p.lastDataAt, now), total: result.total };
  }, 'attention');
  const shown = (list.data ?? []).slice(0, ATTENTION_SHOWN);
  const total = listCount(list.total, list.data?.length ?? 0);
  return (
    <section aria-labelledby="attention-heading" className="card dashboard-attention">
      <h2 id="attention-heading">{t('dashboard.attention.title')}</h2>
      <p className="muted">{t('dashboard.attention.hint')}</p>
      <DataState status={list.status} error={list.error} onRetry={list.reload} hasData={!!list.data}
        empty={list.data?.length === 0} emptyText={t('dashboard.attention.empty')}>
        <ul className="row-list">
          {shown.map((p) => (
            <li key={p.id}>
              <span>
                <Link href={patientLink(p.id)}>{patientName(p)}</Link> <small className="muted"><code>{p.patientCode}</code></small>
              </span>
              <span className="row-actions">
                <FreshnessBadge lastDataAt={p.lastDataAt} now={now} />
                {p.phone && (
                  <a href={`tel:${p.phone.replace(/[^\d+]/g, '')}`} className="call-link" aria-label={t('dashboard.attention.callNamed', { name: patientName(p), phone: p.phone })}>
                    {t('dashboard.attention.call')}
                  </a>
                )}
              </span>
            </li>
          ))}
        </ul>
        {(!total.exact || total.count > shown.length) && (
          <p><Link href="/patient?status=active&sort=lastDataAt">{total.exact ? t('dashboard.attention.all', { n: formatNumber(total.count) }) : t('common.showAll')}</Link></p>
        )}
      </DataState>
    </section>
  );
}

function EndingSoon({ now }: { now: Date }) {
  const list = useResource((signal) => {
    const filter = endingSoonFilter(now);
    return listPage((range) => listPatients({ ...filter, ...range }, signal), filter.limit!);
  }, 'ending');
  const total = listCount(list.total, list.data?.length ?? 0);
  return (
    <section aria-labelledby="ending-heading" className="card">
      <h2 id="ending-heading">{t('dashboard.ending.title')}</h2>
      <DataState status={list.status} error={list.error} onRetry={list.reload} hasData={!!list.data}
        empty={list.data?.length === 0} emptyText={t('dashboard.ending.empty')}>
        <ul className="row-list">
          {(list.data ?? []).map((p: Patient) => {
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
        {(!total.exact || total.count > (list.data?.length ?? 0)) && <p><Link href="/patient?status=ending&sort=aftercareEnd">{total.exact ? t('dashboard.ending.all', { n: formatNumber(total.count) }) : t('common.showAll')}</Link></p>}
      </DataState>
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
      <p><Link href="/news-dashboard">{t('dashboard.news.all')}</Link></p>
    </section>
  );
}

/** Names for a handful of patient ids (one list call), so comment lists say whom they are about. */
async function namesFor(ids: string[], signal: AbortSignal): Promise<Map<string, Patient>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const { data } = await listPatients({ where: { id: { inq: unique } }, limit: unique.length }, signal);
  return new Map(data.map((p) => [p.id, p]));
}

interface FeedItem {
  id: string;
  patientId: string;
  createdAt: string;
  text: string;
}

interface FeedProps<T extends FeedItem> {
  /** Prefix of the heading id; also the key the list is loaded under. */
  id: string;
  title: string;
  emptyText: string;
  /** The five newest entries. */
  load: (signal: AbortSignal) => Promise<{ data: T[] }>;
  author: (item: T) => string;
}

/** Newest comments (the coaches' own or external ones), each with the patient it is about. */
function RecentFeed<T extends FeedItem>({ id, title, emptyText, load, author }: FeedProps<T>) {
  const list = useResource(async (signal) => {
    const { data } = await load(signal);
    return { data: { comments: data, patients: await namesFor(data.map((c) => c.patientId), signal) } };
  }, id);
  return (
    <section aria-labelledby={`${id}-heading`} className="card">
      <h2 id={`${id}-heading`}>{title}</h2>
      <DataState status={list.status} error={list.error} onRetry={list.reload} hasData={!!list.data}
        empty={list.data?.comments.length === 0} emptyText={emptyText}>
        <ul className="feed">
          {(list.data?.comments ?? []).map((c) => {
            const p = list.data?.patients.get(c.patientId);
            return (
              <li key={c.id}>
                <p className="feed-meta">
                  <Link href={patientLink(c.patientId, 'comments')}>{p ? patientName(p) : t('dashboard.unknownPatient')}</Link>
                  {author(c) ? ` · ${author(c)}` : ''}{' · '}<time dateTime={c.createdAt}>{dateTime(c.createdAt)}</time>
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

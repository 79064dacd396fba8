import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { t } from '../../lib/i18n.ts';
import { useAreaPath } from '../../lib/area-path.ts';
import { CoachDetail } from './coaches/CoachDetail.tsx';
import { CoachList } from './coaches/CoachList.tsx';
import { costRatesConfig } from './reference/cost-rates.tsx';
import { devicesConfig } from './reference/devices.tsx';
import { diagnosesConfig } from './reference/diagnoses.tsx';
import { ReferenceTable } from './reference/ReferenceTable.tsx';
import { replicationConfig } from './reference/replication.tsx';
import { surveysConfig } from './reference/surveys.tsx';
import './admin.css';

const TABS = ['coaches', 'devices', 'surveys', 'diagnoses', 'cost-rates', 'replication'] as const;
type Tab = (typeof TABS)[number];
const TAB_KEY: Record<Tab, string> = {
  coaches: 'admin.tab.coaches',
  devices: 'admin.tab.devices',
  surveys: 'admin.tab.surveys',
  diagnoses: 'admin.tab.diagnoses',
  'cost-rates': 'admin.tab.costRates',
  replication: 'admin.tab.replication',
};

/** What follows /admin ("", "coaches/<id>", "devices", ...): which tab and which coach it names. */
export function parseAdminPath(rest: string): { tab: Tab; coachId: string | null } {
  const parts = rest.split('/').filter(Boolean);
  if (parts[0] === 'coaches' && parts[1]) return { tab: 'coaches', coachId: decodeURIComponent(parts[1]) };
  const tab = TABS.find((candidate) => candidate === parts[0]);
  return { tab: tab ?? 'coaches', coachId: null };
}

const tabHref = (tab: Tab) => (tab === 'coaches' ? '/admin' : `/admin/${tab}`);

/** Coach administration and the reference data (the route is behind the admin guard). */
export default function AdminPage() {
  const [path] = useLocation();
  const { tab, coachId } = parseAdminPath(useAreaPath());
  // A confirmation belongs to the view it was given for (the list, after a coach was deleted).
  const [stored, setStored] = useState<{ text: string; path: string } | null>(null);
  const notice = stored && stored.path === path ? stored.text : null;
  const onNotice = (text: string, forPath: string = path) => setStored({ text, path: forPath });
  const setNotice = (text: null) => setStored(text);

  return (
    <section className="admin-page">
      <h1>{t('admin.title')}</h1>
      <nav aria-label={t('admin.tabsLabel')} className="admin-tabs">
        <ul>
          {TABS.map((candidate) => (
            <li key={candidate}>
              <Link
                href={tabHref(candidate)}
                aria-current={candidate === tab ? 'page' : undefined}
                className={candidate === tab ? 'admin-tab admin-tab-active' : 'admin-tab'}
              >
                {t(TAB_KEY[candidate])}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div role="status" className="admin-notice" aria-live="polite">
        {notice && (
          <p>
            {notice}{' '}
            <button type="button" className="secondary outline admin-notice-close" onClick={() => setNotice(null)} aria-label={t('admin.closeNotice')}>
              ×
            </button>
          </p>
        )}
      </div>
      {tab === 'coaches' && (coachId ? <CoachDetail coachId={coachId} onNotice={onNotice} /> : <CoachList onNotice={onNotice} />)}
      {tab === 'devices' && <ReferenceTable config={devicesConfig} onNotice={onNotice} />}
      {tab === 'surveys' && <ReferenceTable config={surveysConfig} onNotice={onNotice} />}
      {tab === 'diagnoses' && <ReferenceTable config={diagnosesConfig} onNotice={onNotice} />}
      {tab === 'cost-rates' && <ReferenceTable config={costRatesConfig} onNotice={onNotice} />}
      {tab === 'replication' && <ReferenceTable config={replicationConfig} onNotice={onNotice} />}
    </section>
  );
}

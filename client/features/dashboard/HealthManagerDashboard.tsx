import './health-manager.css';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { SummaryTiles } from '../../components/controlling/SummaryTiles.tsx';
import { prefetchAreas, whenIdle } from '../../lib/areas.ts';
import { formatDate, t } from '../../lib/i18n.ts';
import { coachName } from '../../lib/names.ts';
import { todayIso } from '../../lib/period.ts';
import { calendarRange, RANGE_BASIS } from '../../lib/period-ranges.ts';
import { user } from '../../state/session.ts';

/**
 * A health manager's start page (docs/product.md#dashboard): this month's patient figures as Controlling counts
 * them, against the same days of the previous month, and the way on into Controlling and Export. Two statistics
 * calls; none of the coach dashboard's caseload and comment calls, which a health manager has no use for.
 */
export default function HealthManagerDashboard() {
  const [today] = useState(() => todayIso());
  const me = user.value;
  // The next step is most often Controlling: its code is fetched while the health manager reads.
  useEffect(() => whenIdle(() => prefetchAreas(['stats'])), []);
  const monthName = formatDate(Date.parse(`${today}T00:00:00Z`), { month: 'long', year: 'numeric', timeZone: 'UTC' });
  return (
    <section className="dashboard health-manager-dashboard">
      <header className="page-header">
        <h1>{t('dashboard.title')}</h1>
        {me && <p className="muted">{t('dashboard.greeting', { name: me.firstName || coachName(me) })}</p>}
      </header>
      <div className="card">
        <SummaryTiles
          period={calendarRange('thisMonth', today)}
          today={today}
          basis={RANGE_BASIS.thisMonth}
          headingId="health-manager-heading"
          heading={`${t('stats.title')} – ${monthName}`}
        >
          <p className="health-manager-links">
            <Link href="/stats?range=thisMonth" className="health-manager-link-primary">
              {t('healthManager.toControlling')}
            </Link>
            <Link href="/export">{t('healthManager.toExport')}</Link>
          </p>
        </SummaryTiles>
      </div>
    </section>
  );
}

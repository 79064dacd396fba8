import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { user } from '../state/session.ts';
import { systemSettings } from '../state/settings.ts';
import { t } from '../lib/i18n.ts';
import { Icon, type IconName } from '../components/Icon.tsx';
import { sidebarOpen } from './sidebar-state.ts';
import { sidebarVisibility } from './sidebar-items.ts';

function Item({ href, icon, label }: { href: string; icon: IconName; label: string }) {
  const [path] = useLocation();
  const active = path === href || path.startsWith(`${href}/`);
  return (
    <li>
      <Link href={href} aria-current={active ? 'page' : undefined} className={active ? 'active' : undefined}>
        <Icon name={icon} size={20} />
        <span>{label}</span>
      </Link>
    </li>
  );
}

/** The links of docs/product.md#screens with the visibility of section 6; the management submenu toggles. */
export function Sidebar() {
  const [path] = useLocation();
  const show = sidebarVisibility(user.value, systemSettings.value);
  const managementPaths = ['/admin', '/stats', '/export'];
  const [managementOpen, setManagementOpen] = useState(() => managementPaths.some((p) => path.startsWith(p)));
  const hasManagement = show.admin || show.stats || show.export;

  return (
    <nav id="sidebar" className="sidebar" aria-label={t('shell.navigation')} hidden={!sidebarOpen.value}>
      <ul>
        <Item href="/dashboard" icon="dashboard" label={t('shell.sidebar.dashboard')} />
        <Item href="/information" icon="help" label={t('shell.sidebar.information')} />
        <Item href="/news-dashboard" icon="newspaper" label={t('shell.sidebar.news')} />
        {show.createAccess ? <Item href="/create-access" icon="plus" label={t('shell.sidebar.createAccess')} /> : null}
        {hasManagement ? (
          <li className="submenu">
            <button
              type="button"
              className="submenu-toggle"
              aria-expanded={managementOpen}
              aria-controls="sidebar-management"
              onClick={() => setManagementOpen(!managementOpen)}
            >
              <Icon name="tools" size={20} />
              <span>{t('shell.sidebar.management')}</span>
              <Icon name="chevron" size={16} className="submenu-chevron" />
            </button>
            <ul id="sidebar-management" hidden={!managementOpen}>
              {show.admin ? <Item href="/admin" icon="users" label={t('shell.sidebar.admin')} /> : null}
              {show.stats ? <Item href="/stats" icon="chart" label={t('shell.sidebar.stats')} /> : null}
              {show.export ? <Item href="/export" icon="download" label={t('shell.sidebar.export')} /> : null}
            </ul>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}

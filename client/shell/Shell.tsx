import { useEffect, type ReactNode } from 'react';
import { useLocation, useSearch } from 'wouter';
import { loadNews } from '../state/news.ts';
import { loadSystemSettings } from '../state/settings.ts';
import { t } from '../lib/i18n.ts';
import { Settle } from '../components/Settle.tsx';
import { onReconnect } from '../lib/connection.ts';
import { TopBar } from './TopBar.tsx';
import { Sidebar } from './Sidebar.tsx';
import { QuickSearch } from './QuickSearch.tsx';
import { closeSidebarAfterNavigation, sidebarOpen } from './sidebar-state.ts';

/** The layout shell: top bar, left sidebar, and the page. */
export default function Shell({ children }: { children?: ReactNode }) {
  const [path] = useLocation();
  const search = useSearch();

  useEffect(() => {
    const load = () => {
      void loadNews();
      void loadSystemSettings();
    };
    load();
    // After a time without connection the badge and the settings may be out of date (or never came).
    return onReconnect(load);
  }, []);

  // docs/product.md#states: after every completed navigation the sidebar closes on windows up to 2500 px.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each navigation: path and search are the trigger, not inputs
  useEffect(() => {
    closeSidebarAfterNavigation();
  }, [path, search]);

  // Escape closes the sidebar, as it closes every other layer that sits over the page.
  const open = sidebarOpen.value;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the listener exists only while the sidebar is open
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented && !document.querySelector('dialog[open]')) sidebarOpen.value = false;
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <div className={sidebarOpen.value ? 'shell sidebar-open' : 'shell'}>
      <a className="skip-link" href="#main">
        {t('shell.skipToContent')}
      </a>
      <TopBar />
      <Sidebar />
      {sidebarOpen.value ? <div className="sidebar-backdrop" aria-hidden="true" onClick={() => (sidebarOpen.value = false)} /> : null}
      <main id="main" className="shell-content" tabIndex={-1}>
        <Settle scope={path}>{children}</Settle>
      </main>
      <QuickSearch />
    </div>
  );
}

import { sidebarOpen, toggleSidebar } from './sidebar-state.ts';
import { logout } from '../state/session-end.ts';
import { t } from '../lib/i18n.ts';
import { instanceTitle } from '../lib/instance-title.ts';
import { Icon } from '../components/Icon.tsx';
import { mayLeave } from '../lib/unsaved.ts';
import { NewsMenu } from './NewsMenu.tsx';
import { LanguageMenu } from './LanguageMenu.tsx';
import { ProfileMenu } from './ProfileMenu.tsx';
import { QuickSearchButton } from './QuickSearch.tsx';

/** Top bar (docs/product.md#screens): menu button, instance title, patient search, news, language, profile, logout. */
export function TopBar() {
  return (
    <header className="topbar">
      <button
        type="button"
        className="icon-button"
        aria-label={t('shell.toggleMenu')}
        aria-expanded={sidebarOpen.value}
        aria-controls="sidebar"
        onClick={toggleSidebar}
      >
        <Icon name="menu" />
      </button>
      <span className="topbar-title">{instanceTitle()}</span>
      <div className="topbar-actions">
        <QuickSearchButton />
        <NewsMenu />
        <LanguageMenu />
        <ProfileMenu />
        <button
          type="button"
          className="icon-button logout-button"
          aria-label={t('shell.logout')}
          onClick={() => {
            // Logging out ends the session and with it every draft: unsaved changes on screen would be gone.
            if (mayLeave(t('unsaved.confirmLogout'))) void logout();
          }}
        >
          <Icon name="logout" />
          <span className="logout-label">{t('shell.logout')}</span>
        </button>
      </div>
    </header>
  );
}

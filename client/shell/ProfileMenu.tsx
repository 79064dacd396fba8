import { Link } from 'wouter';
import { user } from '../state/session.ts';
import { t } from '../lib/i18n.ts';
import { Icon } from '../components/Icon.tsx';
import { Menu } from './Menu.tsx';
import { coachName } from '../lib/names.ts';

/**
 * Profile menu with Inbox and Settings (docs/product.md#screens).
 * Inbox (docs/product.md leaves it open; our decision): the messages addressed to a coach are the news, so Inbox opens
 * /news-dashboard, where unread and read news are listed and can be marked. It is one place, not a second list.
 */
export function ProfileMenu() {
  const me = user.value;
  const name = me ? coachName(me) : '';
  return (
    <Menu className="profile-menu" label={t('shell.profile.label')} tooltip={name || t('shell.profile.label')} button={<Icon name="user" />}>
      {name ? (
        <li role="none" className="menu-heading">
          {name}
        </li>
      ) : null}
      <li role="none">
        <Link role="menuitem" href="/news-dashboard">
          <Icon name="inbox" size={18} /> {t('shell.profile.inbox')}
        </Link>
      </li>
      <li role="none">
        <Link role="menuitem" href="/settings">
          <Icon name="settings" size={18} /> {t('shell.profile.settings')}
        </Link>
      </li>
    </Menu>
  );
}

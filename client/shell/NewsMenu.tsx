import { Link } from 'wouter';
import { unreadNews } from '../state/news.ts';
import { t } from '../lib/i18n.ts';
import { Icon } from '../components/Icon.tsx';
import { Menu } from './Menu.tsx';

/**
 * docs/product.md#screens: unread news by title in reverse order, each to /news-dashboard?id=<id>; with none, the
 * newspaper icon is a plain link to /news-dashboard; with some, it carries a warning badge with the count.
 */
export function NewsMenu() {
  const unread = unreadNews.value;
  if (unread.length === 0) {
    const tooltip = t('shell.news.none');
    return (
      <Link href="/news-dashboard" className="icon-button" aria-label={tooltip} data-tooltip={tooltip} data-placement="bottom">
        <Icon name="newspaper" />
      </Link>
    );
  }
  const tooltip = t('shell.news.unread', { n: unread.length });
  return (
    <Menu
      className="news-menu"
      label={tooltip}
      tooltip={tooltip}
      button={
        <>
          <Icon name="newspaper" />
          <span className="badge badge-warning" aria-hidden="true">
            {unread.length}
          </span>
        </>
      }
    >
      {unread.map((item) => (
        <li role="none" key={item.id}>
          <Link role="menuitem" href={`/news-dashboard?id=${encodeURIComponent(item.id)}`}>
            {item.title}
          </Link>
        </li>
      ))}
    </Menu>
  );
}

import { LOCALES, locale, setLanguage, t, type Locale } from '../lib/i18n.ts';
import { reportError } from '../lib/error-reporting.ts';
import { Icon } from '../components/Icon.tsx';
import { Menu } from './Menu.tsx';

/** German plus English and French (their locale files are complete); the choice applies at once. */
export function LanguageMenu() {
  const choose = (lang: Locale) => {
    setLanguage(lang).catch(reportError);
  };
  return (
    <Menu
      className="language-menu"
      // The accessible name contains the visible code ("Sprache: DE"), so speech users can say what they see.
      label={`${t('shell.language.label')}: ${locale.value.toUpperCase()}`}
      tooltip={t('shell.language.label')}
      button={
        <>
          <Icon name="globe" />
          <span className="menu-code">{locale.value.toUpperCase()}</span>
        </>
      }
    >
      {LOCALES.map((lang) => (
        <li role="none" key={lang}>
          <button type="button" role="menuitemradio" aria-checked={locale.value === lang} lang={lang} onClick={() => choose(lang)}>
            {t(`shell.language.${lang}`)}
          </button>
        </li>
      ))}
    </Menu>
  );
}

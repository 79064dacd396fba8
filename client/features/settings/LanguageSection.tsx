import { useState } from 'react';
import { errorText } from '../../components/errorText.ts';
import { LOCALES, isLocale, locale, setLanguage, t } from '../../lib/i18n.ts';

/** Switches the interface language at once (docs/product.md#states); the choice is remembered in this browser. */
export function LanguageSection() {
  // Not useMutation: a second choice made while the first language loads must win, not be ignored.
  const [error, setError] = useState<string | null>(null);
  const change = (value: string) => {
    if (!isLocale(value)) return;
    setError(null);
    setLanguage(value).catch((failure: unknown) => setError(errorText(failure)));
  };
  return (
    <section aria-labelledby="settings-language-heading">
      <h2 id="settings-language-heading">{t('settings.languageHeading')}</h2>
      <label>
        {t('settings.languageLabel')}
        <select value={locale.value} onInput={(e) => change(e.currentTarget.value)}>
          {LOCALES.map((lang) => (
            <option key={lang} value={lang} lang={lang}>
              {t(`settings.languageName.${lang}`)}
            </option>
          ))}
        </select>
      </label>
      {error && (
        <p role="alert" className="form-error">
          {t('settings.languageFailed')} {error}
        </p>
      )}
    </section>
  );
}

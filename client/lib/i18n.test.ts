import { afterEach, describe, expect, test, vi } from 'vitest';
import { activate, formatNumber, locale, setLanguage, storedLanguage, t } from './i18n.ts';
import { json, mockFetch } from '../../test/helpers/client-fetch.ts';
import fr from '../../locales/fr.json' with { type: 'json' };

afterEach(() => {
  vi.unstubAllGlobals();
  activate('de');
});

describe('i18n', () => {
  test('German is the default language', () => {
    expect(storedLanguage()).toBe('de');
    expect(t('login.title')).toBe('Anmelden');
  });

  test('fills {{n}} placeholders', () => {
    expect(t('shell.news.unread', { n: 3 })).toBe('Sie haben 3 ungelesene News');
  });

  test('switching fetches only that language file, applies at once and is remembered', async () => {
    const { calls } = mockFetch({ 'GET /assets/i18n/fr.json': json(fr) });
    await setLanguage('fr');
    expect(t('login.title')).toBe('Connexion');
    expect(locale.value).toBe('fr');
    expect(document.documentElement.lang).toBe('fr');
    expect(storedLanguage()).toBe('fr');
    expect(document.cookie).toContain('lang=fr');
    await setLanguage('fr');
    expect(calls.map((c) => c.path)).toEqual(['/assets/i18n/fr.json']);
  });

  test('a language file that cannot be loaded leaves the active language unchanged', async () => {
    mockFetch({});
    await expect(setLanguage('en')).rejects.toThrow();
    expect(locale.value).toBe('de');
  });

  test('numbers are formatted for the active locale', () => {
    expect(formatNumber(1234.5)).toBe('1.234,5');
  });
});

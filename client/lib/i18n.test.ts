import { afterEach, describe, expect, test, vi } from 'vitest';
import { activate, formatNumber, loadDocument, locale, setLanguage, storedLanguage, t } from './i18n.ts';
import { isLoadError } from './areas.ts';
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

describe('documents (long texts an area loads with itself)', () => {
  test("an area's document is fetched once from /assets/i18n/<name>/<lang>.json and read through t()", async () => {
    const { calls } = mockFetch({ 'GET /assets/i18n/handbook/de.json': json({ handbook: { title: 'Handbuch' } }) });
    await loadDocument('handbook');
    await loadDocument('handbook');
    expect(t('handbook.title')).toBe('Handbuch');
    // The dictionary's own keys are still there beside it.
    expect(t('login.title')).toBe('Anmelden');
    expect(calls.map((c) => c.path)).toEqual(['/assets/i18n/handbook/de.json']);
  });

  test("after an area asked for a document, a language switch brings that language's copy too", async () => {
    mockFetch({ 'GET /assets/i18n/manual/de.json': json({ manual: { title: 'Anleitung' } }) });
    await loadDocument('manual');
    const { calls } = mockFetch({
      'GET /assets/i18n/fr.json': json(fr),
      'GET /assets/i18n/manual/fr.json': json({ manual: { title: "Mode d'emploi" } }),
      // Asked for by the test above: this module remembers every document an area asked for.
      'GET /assets/i18n/handbook/fr.json': json({ handbook: { title: 'Manuel' } }),
    });
    await setLanguage('fr');
    expect(t('manual.title')).toBe("Mode d'emploi");
    expect(calls.map((c) => c.path)).toContain('/assets/i18n/manual/fr.json');
  });

  test('a document that cannot be fetched is a load error worth another try, and nothing of it is kept', async () => {
    mockFetch({});
    const failure = await loadDocument('leaflet').catch((error: unknown) => error);
    expect(isLoadError(failure)).toBe(true);
    mockFetch({ 'GET /assets/i18n/leaflet/de.json': json({ leaflet: { title: 'Merkblatt' } }) });
    await loadDocument('leaflet');
    expect(t('leaflet.title')).toBe('Merkblatt');
  });
});

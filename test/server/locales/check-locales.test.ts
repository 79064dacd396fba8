import { describe, expect, test } from 'vitest';
import { compareLocale } from '../../../scripts/check-locales.ts';

const de = { login: { title: 'Anmelden', greeting: 'Hallo {{name}}' } };

describe('check-locales', () => {
  test('accepts a complete translation', () => {
    expect(compareLocale('en', de, { login: { title: 'Log in', greeting: 'Hello {{name}}' } })).toEqual([]);
  });

  test('reports a missing key', () => {
    expect(compareLocale('en', de, { login: { title: 'Log in' } })).toEqual(['en: missing key "login.greeting"']);
  });

  test('reports an extra key', () => {
    expect(compareLocale('fr', de, { login: { title: 'Connexion', greeting: 'Bonjour {{name}}', extra: 'x' } })).toEqual([
      'fr: extra key "login.extra" (not in de.json)',
    ]);
  });

  test('reports an empty value, also in de.json itself', () => {
    expect(compareLocale('en', de, { login: { title: ' ', greeting: 'Hello {{name}}' } })).toEqual(['en: "login.title" is empty']);
    expect(compareLocale('de', { a: '' }, { a: '' })).toEqual(['de: "a" is empty']);
  });

  test('reports placeholders that differ from de.json', () => {
    expect(compareLocale('en', de, { login: { title: 'Log in', greeting: 'Hello {{n}}' } })).toHaveLength(1);
  });
});

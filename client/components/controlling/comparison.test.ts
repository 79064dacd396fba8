import { afterEach, describe, expect, test } from 'vitest';
import en from '../../../locales/en.json' with { type: 'json' };
import fr from '../../../locales/fr.json' with { type: 'json' };
import { activate, addDictionary } from '../../lib/i18n.ts';
import { comparisonText } from './comparison.ts';

// Intl writes a narrow no-break space before "%" in German; the tests read it as a plain space.
const text = (...args: Parameters<typeof comparisonText>) => comparisonText(...args).replace(/\u202f|\u00a0/g, ' ');

afterEach(() => activate('de'));

describe('the comparison with the previous period', () => {
  test('says the change in whole percent, the basis and the previous value', () => {
    expect(text(42, 37, 'month')).toBe('+14 % gegenüber Vormonat (vorher 37)');
    expect(text(30, 40, 'quarter')).toBe('-25 % gegenüber Vorquartal (vorher 40)');
    expect(text(1200, 1000, 'year')).toBe('+20 % gegenüber Vorjahr (vorher 1.000)');
    expect(text(3, 4, 'days')).toBe('-25 % gegenüber dem Zeitraum davor (vorher 4)');
  });

  test('gives the difference, not a percentage, when the previous value was zero', () => {
    expect(text(5, 0, 'month')).toBe('+5 gegenüber Vormonat (vorher 0)');
  });

  test('says plus or minus nothing when the figure did not change', () => {
    expect(text(12, 12, 'month')).toBe('±0 % gegenüber Vormonat (vorher 12)');
    expect(text(0, 0, 'month')).toBe('±0 gegenüber Vormonat (vorher 0)');
  });

  test('reads in the active language with its number format', () => {
    addDictionary('en', en);
    addDictionary('fr', fr);
    activate('en');
    expect(text(1200, 1000, 'month')).toBe('+20% vs. previous month (was 1,000)');
    activate('fr');
    expect(text(1200, 1000, 'year')).toBe('+20 % par rapport à l’année précédente (avant : 1 000)');
  });
});

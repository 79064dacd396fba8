import { expect, test } from 'vitest';
import { MAX_VARIANTS, searchVariants, searchWords } from './search-variants.ts';

test('a word with a spelled-out umlaut also stands for the umlaut, and the other way round', () => {
  expect(searchVariants('mueller')).toEqual(['mueller', 'müller']);
  expect(searchVariants('Müller')).toEqual(['müller', 'mueller']);
  expect(searchVariants('guenther')).toEqual(['guenther', 'günther']);
  expect(searchVariants('schroeder')).toEqual(['schroeder', 'schröder']);
  expect(searchVariants('haenel')).toEqual(['haenel', 'hänel']);
});

test('ss and ß stand for each other', () => {
  expect(searchVariants('strasse')).toEqual(['strasse', 'straße']);
  expect(searchVariants('Weiß')).toEqual(['weiß', 'weiss']);
});

test('two umlauts in one word are asked for in every mix', () => {
  expect(new Set(searchVariants('muellerstraße'))).toEqual(new Set(['muellerstraße', 'muellerstrasse', 'müllerstraße', 'müllerstrasse']));
});

test('more umlauts than that stay within the bound: as typed, all spelled out, all as umlauts', () => {
  expect(searchVariants('Jürgen-Müller-Weiß')).toEqual(['jürgen-müller-weiß', 'juergen-mueller-weiss']);
  const mixed = searchVariants('Joerg-Müller-Strasse');
  expect(mixed).toEqual(['joerg-müller-strasse', 'joerg-mueller-strasse', 'jörg-müller-straße']);
  expect(mixed.length).toBeLessThanOrEqual(MAX_VARIANTS);
});

test('a word without umlaut or digraph stands only for itself; "ue" alone is ü or ue, nothing wider', () => {
  expect(searchVariants('Becker')).toEqual(['becker']);
  expect(searchVariants('ue')).toEqual(['ue', 'ü']);
  expect(searchVariants('u')).toEqual(['u']);
});

test('a patient code is asked for with its hyphen and without it', () => {
  expect(searchVariants('nk4821')).toEqual(['nk4821', 'nk-4821']);
  expect(searchVariants('NK-4821')).toEqual(['nk-4821', 'nk4821']);
  expect(searchVariants('nk48')).toEqual(['nk48', 'nk-48']);
  expect(searchVariants('nkx4821')).toEqual(['nkx4821']);
});

test('a code typed with spaces is one word; other words are split on spaces', () => {
  expect(searchWords(' NK 4821 ')).toEqual(['NK4821']);
  expect(searchWords('Weber  Ute')).toEqual(['Weber', 'Ute']);
  expect(searchWords('')).toEqual([]);
});

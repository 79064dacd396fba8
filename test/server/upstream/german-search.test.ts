import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { NAMES, upstreamWithNames, type NamesUpstream } from '../../helpers/upstream-names.ts';

/*
 * Search on names without case and accents, and on phone numbers by their digits, through the stored keys
 * (german-keys.test.ts). The test:postgres run repeats every test here on PostgreSQL.
 */

let t: NamesUpstream;
beforeEach(async () => {
  t = await upstreamWithNames();
});
afterEach(() => t.close());

describe('like on names ignores case and diacritics', () => {
  test.each([
    ['lastName', '%schafer%', ['Schafer, Anton', 'Schäfer, Jörg']],
    ['lastName', '%SCHÄF%', ['Schafer, Anton', 'Schäfer, Jörg']],
    ['firstName', '%gunther%', ['Özdemir, Günther']],
    ['firstName', 'Günther', ['Özdemir, Günther']],
    ['lastName', '%strasse%', ['Straße, José', 'Strasser, Ines']],
    ['lastName', '%straße%', ['Straße, José', 'Strasser, Ines']],
    ['firstName', '%jose%', ['Straße, José']],
    ['lastName', 'ub%', ['ÜBEL, Ñaki']],
    ['firstName', '%zoe%', ['Abt, Zoë']],
    ['lastName', '%oster%', ['Øster, Łukasz']],
  ])('%s like %s', async (field, pattern, expected) => {
    await t.addPatients();
    expect(await t.search(field, pattern)).toEqual(expected);
  });

  test('nlike excludes by the key too', async () => {
    await t.addPatients();
    const rest = await t.list({ where: { and: [{ lastName: { nlike: '%schafer%' } }, { id: { nin: ['p1', 'p2', 'p3'] } }] } });
    expect(rest).not.toContain('Schäfer, Jörg');
    expect(rest).not.toContain('Schafer, Anton');
    expect(rest).toContain('Schulze, Eva');
  });

  test('a phone number is found by its digits, however it was written', async () => {
    await t.addPatients(NAMES.slice(0, 3), (i) => ['030 / 1234-56', '+49 171 555 0101', null][i]);
    expect(await t.search('phone', '%0301234%')).toEqual(['Schulze, Eva']);
    expect(await t.search('phone', '%1234 56%')).toEqual(['Schulze, Eva']);
    expect(await t.search('phone', '%171555%')).toEqual(['Schäfer, Jörg']);
    // Without a digit the number is compared as written.
    expect(await t.search('phone', '% / %')).toEqual(['Schulze, Eva']);
  });
});

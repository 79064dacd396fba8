import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { CODE_ALPHABET, generateCode, isValidCode, normalizeCode } from '../../../server/upstream/lib/codes.ts';

describe('access codes', () => {
  test('look like ABCD-EFGH-JK and never contain 0, O, 1, I or L', () => {
    for (let i = 0; i < 500; i++) {
      const code = generateCode();
      expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{2}$/);
      expect(code).not.toMatch(/[01OIL]/);
      expect(isValidCode(code)).toBe(true);
    }
  });

  test('are accepted in any case, with spaces or without dashes', () => {
    const code = generateCode();
    expect(normalizeCode(code.toLowerCase())).toBe(code);
    expect(normalizeCode(code.replace(/-/g, ' '))).toBe(code);
    expect(normalizeCode(code.replace(/-/g, ''))).toBe(code);
  });

  test('the check character catches every single wrong character', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 1, max: 30 }), (seed, position, shift) => {
        let s = seed;
        const code = generateCode((n) => (s = (s * 1103515245 + 12345) % 2 ** 31) % n);
        const raw = code.replace(/-/g, '');
        const wrong = CODE_ALPHABET[(CODE_ALPHABET.indexOf(raw[position]) + shift) % CODE_ALPHABET.length];
        const typo = raw.slice(0, position) + wrong + raw.slice(position + 1);
        expect(isValidCode(typo)).toBe(false);
      }),
    );
  });

  test('the check character catches swapped neighbours', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: 0, max: 8 }), (seed, position) => {
        let s = seed;
        const raw = generateCode((n) => (s = (s * 1103515245 + 12345) % 2 ** 31) % n).replace(/-/g, '');
        fc.pre(raw[position] !== raw[position + 1]);
        const swapped = raw.slice(0, position) + raw[position + 1] + raw[position] + raw.slice(position + 2);
        expect(isValidCode(swapped)).toBe(false);
      }),
    );
  });

  test('rejects look-alike characters and wrong lengths', () => {
    expect(normalizeCode('ABCD-EFGH-J')).toBeNull();
    expect(normalizeCode('ABCD-EFGH-J0')).toBeNull();
    expect(normalizeCode('OBCD-EFGH-JK')).toBeNull();
  });
});

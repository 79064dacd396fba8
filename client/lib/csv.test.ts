import { describe, test, expect } from 'vitest';
import { toCsv, csvCell, germanDate, germanDateTime, germanNumber, csvBlob } from './csv.ts';

describe('toCsv', () => {
  test('starts with a UTF-8 byte order mark so Excel reads umlauts correctly', async () => {
    const text = toCsv(['Name'], [['Müller']]);
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const bytes = new Uint8Array(await csvBlob(text).arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  test('separates cells with semicolons and ends every line with CRLF', () => {
    const text = toCsv(
      ['a', 'b'],
      [
        ['1', '2'],
        ['3', '4'],
      ],
    );
    expect(text).toBe('\uFEFFa;b\r\n1;2\r\n3;4\r\n');
  });
});

describe('csvCell', () => {
  test('quotes cells holding a semicolon, a quote or a line break and doubles inner quotes', () => {
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell('sagt "Hallo"')).toBe('"sagt ""Hallo"""');
    expect(csvCell('Zeile 1\nZeile 2')).toBe('"Zeile 1\nZeile 2"');
    expect(csvCell('x\r\ny')).toBe('"x\r\ny"');
    expect(csvCell('schlicht')).toBe('schlicht');
  });

  test('neutralises text cells that Excel would run as a formula', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell('+49 30 1234')).toBe("'+49 30 1234");
    expect(csvCell('-1+1')).toBe("'-1+1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
  });

  test('writes numbers with a decimal comma and leaves negative numbers as numbers', () => {
    expect(csvCell(3.5)).toBe('3,5');
    expect(csvCell(-2.25)).toBe('-2,25');
    expect(csvCell(1234)).toBe('1234');
    expect(csvCell(Number.NaN)).toBe('');
  });

  test('writes empty cells for null and undefined, never the words', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  test('writes Date cells as German dates', () => {
    expect(csvCell(new Date(2026, 0, 5, 14, 3))).toBe('05.01.2026');
  });
});

describe('German dates and numbers', () => {
  test('turns ISO dates into dd.mm.yyyy without shifting date-only values', () => {
    expect(germanDate('2026-03-09')).toBe('09.03.2026');
    expect(germanDate(new Date(2026, 11, 31))).toBe('31.12.2026');
    expect(germanDate('')).toBe('');
    expect(germanDate('kein Datum')).toBe('');
    expect(germanDate(null)).toBe('');
  });

  test('adds hours and minutes for date-times', () => {
    expect(germanDateTime(new Date(2026, 1, 3, 7, 5))).toBe('03.02.2026 07:05');
  });

  test('formats numbers with a comma and no thousands separator', () => {
    expect(germanNumber(1234567.891)).toBe('1234567,891');
    expect(germanNumber(Infinity)).toBe('');
  });
});

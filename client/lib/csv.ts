/**
 * CSV that German Excel opens correctly by double-click: UTF-8 with a byte order mark (without it Excel
 * reads Windows-1252 and breaks umlauts), semicolons (Excel in de-DE splits on the list separator ";"),
 * CRLF line ends, dates as dd.mm.yyyy and numbers with a decimal comma.
 */
export type CsvValue = string | number | boolean | Date | null | undefined;

export const CSV_SEPARATOR = ';';
export const CSV_LINE_END = '\r\n';
export const CSV_BOM = '\uFEFF';

const pad = (n: number) => String(n).padStart(2, '0');
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** dd.mm.yyyy; a date-only ISO string is taken as written (no time-zone shift), anything else in local time. */
export function germanDate(value: string | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string') {
    const m = DATE_ONLY.exec(value);
    if (m) return `${m[3]}.${m[2]}.${m[1]}`;
  }
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return `${pad(date.getDate())}.${pad(date.getMonth() + 1)}.${date.getFullYear()}`;
}

/** dd.mm.yyyy hh:mm in local time. */
export function germanDateTime(value: string | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return `${germanDate(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Decimal comma, no thousands separator (Excel would read "1.234" as a date or as 1,234). */
export function germanNumber(value: number): string {
  if (!Number.isFinite(value)) return '';
  return String(value).replace('.', ',');
}

/*
 * Formula injection: a cell that starts with = + - @ (or a tab / carriage return, which Excel strips
 * before looking) is run as a formula, so a patient name like "=HYPERLINK(...)" could exfiltrate data or
 * start programs. Such text cells get a leading apostrophe, which Excel shows as plain text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[";\r\n]/;

/** One cell: formatted, neutralised against formulas, quoted when it holds ; " or a line break. */
export function csvCell(value: CsvValue): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (value instanceof Date) text = germanDate(value);
  else if (typeof value === 'number')
    return germanNumber(value); // numbers never need quoting or neutralising
  else if (typeof value === 'boolean') text = value ? '1' : '0';
  else text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly CsvValue[]): string {
  return values.map(csvCell).join(CSV_SEPARATOR) + CSV_LINE_END;
}

/** The whole file as text, BOM first, one header line, every line ending in CRLF. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return CSV_BOM + csvLine(header) + rows.map(csvLine).join('');
}

export function csvBlob(text: string): Blob {
  return new Blob([text], { type: 'text/csv;charset=utf-8' });
}

/** Offers the text as a file download (a temporary object URL clicked through a hidden link). */
export function downloadCsv(fileName: string, text: string): void {
  const url = URL.createObjectURL(csvBlob(text));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

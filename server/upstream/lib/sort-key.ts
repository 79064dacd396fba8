/*
 * German order and search for names (DIN 5007 variant 1, the phone-book order): "Schäfer" sorts with "Schafer",
 * before "Schulze"; "gunther" finds "Günther". Each name column has a stored key column next to it (migration
 * 106), kept by db/sort-key-plugin.ts on every insert and update, so ORDER BY and LIKE on the key are plain SQL
 * that gives the same answer on SQLite and PostgreSQL, whatever collation a PostgreSQL database was made with.
 * A second key spells umlauts out as a German keyboard without them does (DIN 5007 variant 2: "mueller" finds
 * "Müller", migration 109), and the patient code has a key without its separators ("nk4821" finds "NK-4821").
 */
/** Letters that Unicode does not decompose into a base letter plus marks. */
const FOLDED: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i' };

/**
 * The sort and search key of a name: lower case, ß as ss, accents and umlaut dots removed (ä as a, é as e,
 * ñ as n). LIKE wildcards (% and _) and every other character stay as they are, so a pattern can be keyed too.
 */
export function nameKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/[ßæœøđðłþı]/g, (c) => FOLDED[c])
    .normalize('NFKD')
    .replace(/\p{M}/gu, '');
}

/**
 * The spelled-out search key of a name: lower case, ä as ae, ö as oe, ü as ue, ß as ss, other accents removed
 * ("Günther Weiß" is "guenther weiss", "Zoë" is "zoe"). Wildcards stay, as in nameKey.
 */
export function spelledKey(text: string): string {
  return nameKey(
    text
      .normalize('NFC')
      .toLowerCase()
      .replace(/[äöü]/g, (c) => `${nameKey(c)}e`),
  );
}

/** The search key of a patient code: lower case without spaces, hyphens, dots or slashes ("NK-4821" is nk4821). */
export function codeKey(text: string): string {
  return text.toLowerCase().replace(/[\s\-./]/g, '');
}

/** The search key of a phone number: its digits ("030 / 1234-56" is 030123456). */
export function phoneKey(text: string): string {
  return text.replace(/\D/g, '');
}

export interface KeyedColumn {
  /** The stored key column. */
  column: string;
  /** The key of a stored value. */
  key: (value: string) => string;
  /** A LIKE pattern as the key column is compared with; null: compare the column itself (lower-cased) instead. */
  pattern: (like: string) => string | null;
}

const nameColumn = (column: string): KeyedColumn => ({ column, key: nameKey, pattern: nameKey });
const spelledColumn = (column: string): KeyedColumn => ({ column, key: spelledKey, pattern: spelledKey });
/** A code pattern of separators only ("%-%") is compared with the code as written, not with every key. */
const codeColumn: KeyedColumn = { column: 'patientCodeKey', key: codeKey, pattern: (like) => (/[^%_]/.test(codeKey(like)) ? codeKey(like) : null) };
/** A phone pattern is compared by its digits; one without any digit ("%anna%") is compared with the number as written. */
const phoneColumn: KeyedColumn = { column: 'phoneKey', key: phoneKey, pattern: (like) => (/\d/.test(like) ? like.replace(/[^\d%_]/g, '') : null) };

/**
 * Per table: which columns have key columns, and how they are made. A LIKE on the field matches when it matches
 * any of its keys; the first key of a name is its sort key.
 */
export const KEYED_COLUMNS: Record<string, Record<string, KeyedColumn[]>> = {
  patients: {
    firstName: [nameColumn('firstNameKey'), spelledColumn('firstNameSpelledKey')],
    lastName: [nameColumn('lastNameKey'), spelledColumn('lastNameSpelledKey')],
    phone: [phoneColumn],
    patientCode: [codeColumn],
  },
  coaches: { firstName: [nameColumn('firstNameKey')], lastName: [nameColumn('lastNameKey')] },
};

/** The key columns of `table.field` (none when the field has no key). */
export function keyedColumns(table: string | undefined, field: string): KeyedColumn[] {
  if (!table || !Object.hasOwn(KEYED_COLUMNS, table)) return [];
  const columns = KEYED_COLUMNS[table];
  return Object.hasOwn(columns, field) ? columns[field] : [];
}

/** The column an ORDER BY on `field` uses: the name's sort key where it has one (German order), else the field. */
export function orderColumn(table: string, field: string): string {
  const sortKey = keyedColumns(table, field).find((keyed) => keyed.key === nameKey);
  return sortKey ? sortKey.column : field;
}

/** Compares two names in German order (for sorting in memory, e.g. the statistics rows); byte order of the keys, as in the database. */
export function compareNames(a: string, b: string): number {
  const x = nameKey(a);
  const y = nameKey(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/*
 * The spellings one search word stands for. German keyboards without umlauts write "mueller" for "Müller" and
 * "strasse" for "Straße"; a patient code is read out and typed with or without its hyphen ("nk4821" for
 * "NK-4821", lib/patient-codes on the built-in upstream makes two letters, a hyphen and four digits). An API that
 * compares as written needs each of them asked for; the built-in upstream folds them into one key anyway.
 */

/** An umlaut (or ß) and how it is spelled without one, both ways. */
const COUNTERPART: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss', ae: 'ä', oe: 'ö', ue: 'ü', ss: 'ß' };
const SWAPPABLE = /(ä|ö|ü|ß|ae|oe|ue|ss)/;

/** At most this many spellings per word (before case): every mix for up to two umlauts, else the three pure ones. */
export const MAX_VARIANTS = 4;

function umlautVariants(lower: string): string[] {
  // Odd indices are the swappable pieces: "muellerstrasse" is ["m", "ue", "llerstra", "ss", "e"].
  const pieces = lower.split(SWAPPABLE);
  const swappable = pieces.flatMap((_, i) => (i % 2 === 1 ? [i] : []));
  if (2 ** swappable.length > MAX_VARIANTS) {
    const spelled = pieces.map((p, i) => (i % 2 === 1 && p.length === 1 ? COUNTERPART[p] : p)).join('');
    const umlauts = pieces.map((p, i) => (i % 2 === 1 && p.length === 2 ? COUNTERPART[p] : p)).join('');
    return [lower, spelled, umlauts];
  }
  let variants = [pieces];
  for (const index of swappable) variants = variants.flatMap((v) => [v, v.map((p, i) => (i === index ? COUNTERPART[p] : p))]);
  return variants.map((v) => v.join(''));
}

/** A code as its two letters and digits, typed with a hyphen, a space or nothing between them ("nk 48" too). */
const CODE = /^([a-z]{2})[\s-]*(\d{1,4})$/i;

function codeVariants(lower: string): string[] {
  const code = CODE.exec(lower);
  return code ? [`${code[1]}-${code[2]}`, `${code[1]}${code[2]}`] : [];
}

/** The lower-case spellings of a word: as typed, with umlauts swapped for their spelled form and back, and as a code. */
export function searchVariants(word: string): string[] {
  const lower = word.toLocaleLowerCase('de');
  return [...new Set([...umlautVariants(lower), ...codeVariants(lower)])];
}

/** Splits a search text into words; a code typed with spaces ("NK 4821") stays one word. */
export function searchWords(text: string): string[] {
  const trimmed = text.trim();
  if (CODE.test(trimmed)) return [trimmed.replace(/\s+/g, '')];
  return trimmed.split(/\s+/).filter(Boolean);
}

import { searchVariants, searchWords } from './search-variants.ts';

/*
 * The one patient search (quick search, dashboard, patient list): every word of the text must match the first name,
 * last name or code, or, when it has a digit, the phone number. Sent as `like` conditions of docs/product.md#calls's list
 * call. The built-in upstream compares names by their German search keys (case and accents ignored, "mueller" as
 * "müller", a code without its hyphen); another API may compare as written (LoopBack's memory connector does), so
 * each word is also sent in the spellings it stands for (search-variants.ts), each as a person would write it in
 * a name or a code: "mueller" is asked as "mueller", "Mueller", "MUELLER", "müller", "Müller" and "MÜLLER".
 */

/** LIKE wildcards typed by a person are taken literally by dropping them (the API has no escape). */
const literal = (word: string) => word.replace(/[%_]/g, '');

function spellings(word: string): string[] {
  const lower = word.toLocaleLowerCase('de');
  const capitalised = lower.charAt(0).toLocaleUpperCase('de') + lower.slice(1);
  return [lower, capitalised, word.toLocaleUpperCase('de')];
}

/** The `where` of a search for `text`, or undefined when there is nothing to search for. */
export function patientSearchWhere(text: string): Record<string, unknown> | undefined {
  const words = searchWords(text).map(literal).filter(Boolean);
  const and = words.map((word) => {
    const patterns = [...new Set([word, ...searchVariants(word).flatMap(spellings)])].map((w) => `%${w}%`);
    const fields = ['firstName', 'lastName', 'patientCode', ...(/\d/.test(word) ? ['phone'] : [])];
    return { or: fields.flatMap((field) => patterns.map((like) => ({ [field]: { like } }))) };
  });
  if (and.length === 0) return undefined;
  return and.length === 1 ? and[0] : { and };
}

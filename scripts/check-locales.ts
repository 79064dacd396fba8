// Fails (exit 1) when en.json or fr.json misses a key of de.json (the source of truth), has a key de.json
// does not have, uses other {{placeholders}}, or when any language has an empty text.
// Run: npm run check:locales
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

type Tree = { [key: string]: string | Tree };

/** Flatten {"a": {"b": "x"}} to {"a.b": "x"}; non-string leaves are reported as problems. */
export function flatten(tree: unknown, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  if (tree && typeof tree === 'object' && !Array.isArray(tree)) {
    for (const [key, value] of Object.entries(tree as Tree)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (value && typeof value === 'object' && !Array.isArray(value)) flatten(value, path, out);
      else out[path] = value;
    }
  }
  return out;
}

const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)]
    .map((m) => m[1])
    .sort()
    .join(',');

/** Problems of one language compared with the German source. */
export function compareLocale(lang: string, source: unknown, target: unknown): string[] {
  const de = flatten(source);
  const other = flatten(target);
  const problems: string[] = [];
  for (const [key, value] of Object.entries(other)) {
    if (typeof value !== 'string') problems.push(`${lang}: "${key}" is not a text`);
    else if (value.trim() === '') problems.push(`${lang}: "${key}" is empty`);
    if (!(key in de)) problems.push(`${lang}: extra key "${key}" (not in de.json)`);
    else if (typeof value === 'string' && typeof de[key] === 'string' && placeholders(value) !== placeholders(de[key] as string)) {
      problems.push(`${lang}: "${key}" has placeholders {${placeholders(value)}} but de.json has {${placeholders(de[key] as string)}}`);
    }
  }
  if (lang !== 'de') {
    for (const key of Object.keys(de)) if (!(key in other)) problems.push(`${lang}: missing key "${key}"`);
  }
  return problems;
}

/** Documents: long texts one area shows, loaded with it (client/lib/i18n.ts loadDocument). */
export const DOCUMENTS = ['help', 'print', 'access-codes'];

function main(): void {
  const dir = fileURLToPath(new URL('../locales/', import.meta.url));
  const read = (lang: string): unknown => {
    try {
      return JSON.parse(readFileSync(`${dir}${lang}.json`, 'utf8'));
    } catch (error) {
      console.error(`locales/${lang}.json cannot be read: ${(error as Error).message}`);
      process.exit(1);
    }
  };
  // The dictionaries (<lang>.json) and every document (<name>/<lang>.json: texts an area loads with itself).
  const sets = ['', ...DOCUMENTS.map((name) => `${name}/`)];
  const problems = sets.flatMap((set) => {
    const de = read(`${set}de`);
    return ['de', 'en', 'fr'].flatMap((lang) => compareLocale(`${set}${lang}`, de, lang === 'de' ? de : read(`${set}${lang}`)));
  });
  // A document's top-level keys must not be the dictionary's: both go into the same t(), merged by top-level key.
  const dictionaryKeys = Object.keys(read('de') as object);
  for (const set of sets.slice(1)) {
    for (const key of Object.keys(read(`${set}de`) as object))
      if (dictionaryKeys.includes(key)) problems.push(`${set}de: top-level key "${key}" is also in de.json`);
  }
  if (problems.length) {
    console.error(`Locale check failed (${problems.length}):\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  const count = sets.reduce((sum, set) => sum + Object.keys(flatten(read(`${set}de`))).length, 0);
  console.log(`Locales complete: ${count} keys in de, en and fr (${sets.length} files each).`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();

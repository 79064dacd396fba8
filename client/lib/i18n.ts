import rosetta from 'rosetta';
import { signal, computed } from '@preact/signals-react';
import { AreaLoadError } from './load-error.ts';

export const LOCALES = ['de', 'en', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'de';
const LOCALE_KEY = 'language';

const i18n = rosetta<Record<string, unknown>>();
/** Bumped whenever a dictionary or the locale changes, so every t() reader re-renders. */
const version = signal(0);
export const locale = signal<Locale>(DEFAULT_LOCALE);
const loaded = new Set<Locale>();

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** Translate a dotted key ("login.title"); {{name}} placeholders are filled from params. */
export function t(key: string, params?: Record<string, string | number>): string {
  void version.value; // subscribe: components re-render on a language switch
  const text = i18n.t(key, params ?? {});
  return text === '' ? key : text;
}

/** Register a dictionary directly (tests, and the loader below). */
export function addDictionary(lang: Locale, dict: Record<string, unknown>): void {
  i18n.set(lang, dict);
  loaded.add(lang);
  version.value++;
}

export function activate(lang: Locale): void {
  i18n.locale(lang);
  locale.value = lang;
  document.documentElement.lang = lang;
  version.value++;
}

/*
 * Texts come in two kinds. The interface texts of every screen are one dictionary per language,
 * /assets/i18n/<lang>.json (docs: product behaviour, section 1), loaded with the first screen. Documents, long
 * prose that one area shows (the coach guide and the help answers: locales/help/<lang>.json), are loaded with
 * that area, /assets/i18n/<name>/<lang>.json, and go into the same t() under their own top-level keys; once
 * an area has asked for a document, a language switch loads that language's copy too. The build serves every
 * section of a dictionary that the first screen does not read as the document "app" (scripts/build-texts.ts),
 * which comes with any area (lib/areas.ts).
 */
const documents = new Set<string>();
const loadedDocuments = new Set<string>();
const fetchingDocuments = new Map<string, Promise<void>>();

/** Fetches one language's copy of a document once; a second caller while it is under way waits for the same. */
function fetchDocument(name: string, lang: Locale, priority: RequestPriority = 'high'): Promise<void> {
  const key = `${name}/${lang}`;
  if (loadedDocuments.has(key)) return Promise.resolve();
  let pending = fetchingDocuments.get(key);
  if (!pending) {
    pending = readDocument(key, lang, priority).finally(() => fetchingDocuments.delete(key));
    fetchingDocuments.set(key, pending);
  }
  return pending;
}

async function readDocument(key: string, lang: Locale, priority: RequestPriority): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`/assets/i18n/${key}.json`, { credentials: 'same-origin', priority });
  } catch (cause) {
    // Like an area's code: worth another try ("Erneut versuchen", the next visit), see lib/areas.ts.
    throw new AreaLoadError(`texts ${key} could not be fetched: ${(cause as Error).message}`);
  }
  if (!response.ok) throw new AreaLoadError(`texts ${key} answered ${response.status}`);
  // rosetta merges top-level keys: a document's keys ("guide", "faq") sit beside the dictionary's.
  i18n.set(lang, (await response.json()) as Record<string, unknown>);
  loadedDocuments.add(key);
  version.value++;
}

/** Loads the document `name` of the active language (and, from now on, of every language switched to). */
export function loadDocument(name: string, priority: RequestPriority = 'high'): Promise<void> {
  documents.add(name);
  return fetchDocument(name, locale.value, priority);
}

/** Register a document's texts directly (tests); unlike loadDocument it asks for no other language's copy. */
export function addDocument(name: string, lang: Locale, texts: Record<string, unknown>): void {
  i18n.set(lang, texts);
  loadedDocuments.add(`${name}/${lang}`);
  version.value++;
}

/** Fetch /assets/i18n/<lang>.json once (and the documents areas asked for), activate it and remember the choice. */
export async function setLanguage(lang: Locale): Promise<void> {
  const pending = [...documents].map((name) => fetchDocument(name, lang));
  if (!loaded.has(lang)) {
    const response = await fetch(`/assets/i18n/${lang}.json`, { credentials: 'same-origin' });
    if (!response.ok) throw new Error(`Could not load language ${lang}: HTTP ${response.status}`);
    addDictionary(lang, (await response.json()) as Record<string, unknown>);
  }
  await Promise.all(pending);
  activate(lang);
  rememberLanguage();
}

/** Store the active language (also called after logout clears local storage). */
export function rememberLanguage(): void {
  // Mirrored into a cookie so the gateway preloads this language's dictionary with the page.
  // biome-ignore lint/suspicious/noDocumentCookie: one small cookie written synchronously before a reload; the Cookie Store API is not in every supported browser
  document.cookie = `lang=${locale.value}; Path=/; Max-Age=31536000; SameSite=Strict`;
  try {
    localStorage.setItem(LOCALE_KEY, locale.value);
  } catch {
    // Storage disabled (private mode): the choice simply is not remembered.
  }
}

/** The remembered language, or German. */
export function storedLanguage(): Locale {
  let value: string | null = null;
  try {
    value = localStorage.getItem(LOCALE_KEY);
  } catch {
    // Storage disabled: German.
  }
  return isLocale(value) ? value : DEFAULT_LOCALE;
}

/*
 * Intl formatters in the active locale, each made once per locale and options: making one costs far more than
 * formatting with it, and a list of 50 patients formats a few dates per row.
 */
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
function formatter<F extends Intl.DateTimeFormat | Intl.NumberFormat>(kind: string, lang: string, options: object | undefined, make: () => F): F {
  const key = `${kind}|${lang}|${JSON.stringify(options ?? {})}`;
  const made = (formatters.get(key) as F | undefined) ?? make();
  formatters.set(key, made);
  return made;
}

/** Intl.DateTimeFormat for a locale and options, made once. */
export const dateFormat = (lang: string, options?: Intl.DateTimeFormatOptions) =>
  formatter('date', lang, options, () => new Intl.DateTimeFormat(lang, options));

/** A date in the active locale; a value that is no date (an answer without it reads as '') shows as a dash. */
export function formatDate(value: Date | string | number, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }): string {
  const date = new Date(value);
  if (value === '' || Number.isNaN(date.getTime())) return '–';
  return dateFormat(locale.value, options).format(date);
}
export const formatNumber = (value: number, options?: Intl.NumberFormatOptions) =>
  formatter('number', locale.value, options, () => new Intl.NumberFormat(locale.value, options)).format(value);
export const intlLocale = computed(() => locale.value);

/**
 * The dictionaries (locales/<lang>.json) are one file each in the source, but the browser gets them in two parts:
 * the sections the first screen reads (login, loading, error and offline screens) in /assets/i18n/<lang>.json,
 * which the page preloads and which counts against the first-screen budget, and every other section in
 * /assets/i18n/app/<lang>.json, which comes with any area (client/lib/areas.ts), like the app stylesheet.
 * test/server/gateway/built-client.test.ts fails when the entry script reads a section that is not listed here.
 */
export const FIRST_SCREEN_SECTIONS = ['common', 'connection', 'session', 'login', 'unsupported', 'dataState', 'passwordInput', 'idle'];

/** The document name under which the rest of each dictionary is served. */
export const APP_TEXTS = 'app';

type Dictionary = Record<string, unknown>;

/** One dictionary cut into the first-screen part and the app part; every section lands in exactly one. */
export function splitDictionary(dictionary: Dictionary): { firstScreen: Dictionary; app: Dictionary } {
  const firstScreen: Dictionary = {};
  const app: Dictionary = {};
  for (const [section, texts] of Object.entries(dictionary)) {
    if (FIRST_SCREEN_SECTIONS.includes(section)) firstScreen[section] = texts;
    else app[section] = texts;
  }
  return { firstScreen, app };
}

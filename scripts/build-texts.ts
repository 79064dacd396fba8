import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The dictionaries (locales/<lang>.json) are one file each in the source, but the browser gets them in two parts:
 * the sections the first screen reads (login, loading, error and offline screens) in /assets/i18n/<lang>.json,
 * which the page preloads and which counts against the first-screen budget, and every other section in
 * /assets/i18n/app/<lang>.json, which comes with any area (client/lib/areas.ts), like the app stylesheet.
 * test/server/gateway/built-client.test.ts fails when a first-screen script reads a section that is not listed here.
 */
export const FIRST_SCREEN_SECTIONS = ['common', 'connection', 'session', 'login', 'unsupported', 'dataState', 'passwordInput', 'idle'];

/** The document name under which the rest of each dictionary is served. */
export const APP_TEXTS = 'app';

/**
 * Writes every locale file re-serialised without whitespace (the German one counts against the first screen).
 * Documents (long texts one area shows, locales/<name>/<lang>.json) are copied as they are.
 */
export function writeTexts(localesDir: string, i18nDir: string): void {
  const write = (file: string, texts: object) => {
    mkdirSync(dirname(join(i18nDir, file)), { recursive: true });
    writeFileSync(join(i18nDir, file), JSON.stringify(texts));
  };
  for (const file of readdirSync(localesDir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.json'))) {
    const texts = JSON.parse(readFileSync(join(localesDir, file), 'utf8')) as Record<string, unknown>;
    if (dirname(file) !== '.') {
      write(file, texts);
      continue;
    }
    const sections = Object.entries(texts);
    write(file, Object.fromEntries(sections.filter(([section]) => FIRST_SCREEN_SECTIONS.includes(section))));
    write(`${APP_TEXTS}/${file}`, Object.fromEntries(sections.filter(([section]) => !FIRST_SCREEN_SECTIONS.includes(section))));
  }
}

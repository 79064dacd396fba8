import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The browser gets each dictionary (locales/<lang>.json) in two parts: the sections the first screen reads, in
 * /assets/i18n/<lang>.json (preloaded by the page, counted against the first-screen budget), and every other
 * section in /assets/i18n/app/<lang>.json, which comes with any area (client/lib/areas.ts). Documents (long texts
 * one area shows, locales/<name>/<lang>.json) are copied as they are. Everything is re-serialised without
 * whitespace. test/server/gateway/built-client.test.ts fails when a first-screen script reads a section not listed.
 */
export const FIRST_SCREEN_SECTIONS = ['common', 'connection', 'session', 'login', 'unsupported', 'dataState', 'passwordInput', 'idle'];

/** The sections of a dictionary that are (or are not) the first screen's. */
const sections = (texts: object, firstScreen: boolean) =>
  Object.fromEntries(Object.entries(texts).filter(([name]) => FIRST_SCREEN_SECTIONS.includes(name) === firstScreen));

export function writeTexts(localesDir: string, i18nDir: string): void {
  const write = (file: string, texts: object) => {
    mkdirSync(dirname(join(i18nDir, file)), { recursive: true });
    writeFileSync(join(i18nDir, file), JSON.stringify(texts));
  };
  for (const file of readdirSync(localesDir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.json'))) {
    const texts = JSON.parse(readFileSync(join(localesDir, file), 'utf8')) as object;
    const isDocument = dirname(file) !== '.';
    write(file, isDocument ? texts : sections(texts, true));
    if (!isDocument) write(`app/${file}`, sections(texts, false));
  }
}

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { LANG_PLACEHOLDER, SENTRY_PLACEHOLDER, TITLE_PLACEHOLDER } from '../server/page.ts';
import type { BuildManifest } from './build.ts';

/* What the build writes last (scripts/build.ts): the page template and the .br/.gz copies of every text file. */
export const files = (dir: string) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((name) => join(dir, name));

const TEXT_EXTENSIONS = new Set(['.js', '.css', '.map', '.json', '.html', '.svg', '.txt', '.xml', '.webmanifest']);

/** Writes name.br and name.gz beside every text file except the index.html template (the gateway fills and compresses it). */
export async function precompress(publicDir: string): Promise<number> {
  let count = 0;
  for (const file of files(publicDir).filter((f) => TEXT_EXTENSIONS.has(extname(f)) && f !== join(publicDir, 'index.html'))) {
    const content = readFileSync(file);
    // Source maps are only fetched by developer tools: fast settings keep the build quick (one map is megabytes).
    const isMap = file.endsWith('.map');
    const params = { [constants.BROTLI_PARAM_QUALITY]: isMap ? 5 : 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length };
    writeFileSync(`${file}.br`, brotliCompressSync(content, { params }));
    writeFileSync(`${file}.gz`, gzipSync(content, { level: isMap ? 6 : 9 }));
    count++;
  }
  return count;
}

const attr = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** No inline script anywhere (the CSP forbids it): the entry is an external module, the title and the area table meta tags. */
export function renderTemplate(manifest: BuildManifest): string {
  return [
    '<!DOCTYPE html>',
    `<html lang="${LANG_PLACEHOLDER}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${TITLE_PLACEHOLDER}</title>`,
    `<meta name="app-title" content="${TITLE_PLACEHOLDER}">`,
    SENTRY_PLACEHOLDER,
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    ...manifest.css.map((href) => `<link rel="stylesheet" href="${attr(href)}">`),
    ...manifest.preload.map((href) => `<link rel="modulepreload" href="${attr(href)}">`),
    // What each area needs beyond the first screen's files, read by client/lib/areas.ts.
    `<meta name="area-files" content="${attr(JSON.stringify({ css: manifest.appCss, files: manifest.areas }))}">`,
    // The dictionary of the page's language (German unless the lang cookie says otherwise) is needed before the
    // first screen can show text, so it is fetched in parallel with the scripts.
    `<link rel="preload" href="/assets/i18n/${LANG_PLACEHOLDER}.json" as="fetch" crossorigin="anonymous">`,
    `<script type="module" src="${attr(manifest.entry)}"></script>`,
    '</head>',
    '<body>',
    '<div id="app"></div>',
    '<noscript>Bitte aktivieren Sie JavaScript, um diese Anwendung zu verwenden.</noscript>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

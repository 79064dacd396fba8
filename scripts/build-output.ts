import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { LANG_PLACEHOLDER, SENTRY_PLACEHOLDER, TITLE_PLACEHOLDER } from '../server/page.ts';
import type { BuildManifest } from './build.ts';

/* What the build writes last (scripts/build.ts): the page template and the .br/.gz copies of every text file. */

const TEXT_EXTENSIONS = new Set(['.js', '.css', '.map', '.json', '.html', '.svg', '.txt', '.xml', '.webmanifest']);

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

export function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

/** Writes name.br and name.gz beside every text file except the index.html template (which the gateway fills and compresses itself). */
export async function precompress(publicDir: string): Promise<number> {
  const jobs: Promise<void>[] = [];
  for (const file of walk(publicDir)) {
    if (!TEXT_EXTENSIONS.has(extname(file)) || file === join(publicDir, 'index.html')) continue;
    const content = readFileSync(file);
    // Source maps are only fetched by developer tools: fast settings keep the build quick (one map is megabytes).
    const isMap = file.endsWith('.map');
    const quality = isMap ? 5 : 11;
    jobs.push(
      brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }).then((b) =>
        writeFileSync(`${file}.br`, b),
      ),
      gz(content, { level: isMap ? 6 : 9 }).then((g) => writeFileSync(`${file}.gz`, g)),
    );
  }
  await Promise.all(jobs);
  return jobs.length / 2;
}

const escapeAttr = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** No inline script anywhere (the CSP forbids it): the entry is an external module, the title a meta tag. */
export function renderTemplate(manifest: BuildManifest): string {
  const lines = [
    '<!DOCTYPE html>',
    `<html lang="${LANG_PLACEHOLDER}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${TITLE_PLACEHOLDER}</title>`,
    `<meta name="app-title" content="${TITLE_PLACEHOLDER}">`,
    SENTRY_PLACEHOLDER,
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    ...manifest.css.map((href) => `<link rel="stylesheet" href="${escapeAttr(href)}">`),
    ...manifest.preload.map((href) => `<link rel="modulepreload" href="${escapeAttr(href)}">`),
    // What each area needs beyond the entry's files (client/lib/areas.ts): data, not script, so the CSP allows it.
    `<meta name="area-files" content="${escapeAttr(JSON.stringify({ css: manifest.appCss, files: manifest.areas }))}">`,
    // The dictionary of the page's language (German unless the lang cookie says otherwise) is needed before
    // the first screen can show text, so it is fetched in parallel with the scripts.
    `<link rel="preload" href="/assets/i18n/${LANG_PLACEHOLDER}.json" as="fetch" crossorigin="anonymous">`,
    `<script type="module" src="${escapeAttr(manifest.entry)}"></script>`,
    '</head>',
    '<body>',
    '<div id="app"></div>',
    '<noscript>Bitte aktivieren Sie JavaScript, um diese Anwendung zu verwenden.</noscript>',
    '</body>',
    '</html>',
    '',
  ];
  return lines.join('\n');
}

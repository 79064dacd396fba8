import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { clientAliases } from './aliases.ts';
import { appSheet, firstScreenSheet } from './build-css.ts';
import { TARGET, foldEntryChunks, staticClosure } from './build-fold.ts';
import { collectCssPlugin, oneHomePlugin, readGraph } from './build-graph.ts';
import { minifyAgain } from './build-minify.ts';
import { nameByContent, type Renameable } from './build-names.ts';
import { precompress, renderTemplate, walk } from './build-output.ts';
import { APP_TEXTS, splitDictionary } from './build-texts.ts';

export { precompress, renderTemplate };

/**
 * Client build: client/main.tsx -> dist/public (index.html template + hashed assets + locales + static/).
 * The gateway fills the template's placeholders per instance (title, Sentry DSN) and serves the folder.
 *
 * Scripts: the entry (first screen), one chunk per area of the route table and one app chunk (the shell, the
 * API layer and what areas share): scripts/build-graph.ts. Styles: the first-screen sheet the page links and
 * the app sheet everything after the login screen waits for: scripts/build-css.ts. Every file is named after
 * its final bytes: scripts/build-names.ts.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Files the build writes .br and .gz copies for (the gateway serves them per Accept-Encoding). */

export interface BuildOptions {
  root?: string;
  /** Default <root>/client/main.tsx. */
  entry?: string;
  /** The area table whose dynamic imports are the areas (client/areas.ts, the one definition of the areas). */
  routes?: string;
  /** The app module (shell, API layer); default <root>/client/app.ts. */
  app?: string;
  /** Default <root>/dist; the served files go to <outDir>/public. */
  outDir?: string;
  localesDir?: string;
  staticDir?: string;
  log?: (line: string) => void;
}

export interface BuildManifest {
  /** URL paths. */
  entry: string;
  /** The first-screen sheet (linked by the page). */
  css: string[];
  /** The app sheet: everything after the login screen waits for it. */
  appCss: string;
  /** Chunks the entry imports statically (they are modulepreloaded); empty, they are folded into the entry. */
  preload: string[];
  /** Area name -> the scripts it needs (its own chunk and the app chunk), fetched before it is imported. */
  areas: Record<string, string[]>;
}

/** Stands in the entry for the area table until every file it lists has its final name (client/lib/areas.ts). */
export const AREA_FILES_PLACEHOLDER = '"__COACH_PORTAL_AREA_FILES__"';

export async function build(options: BuildOptions = {}): Promise<BuildManifest> {
  const root = resolve(options.root ?? ROOT);
  const entry = resolve(options.entry ?? join(root, 'client/main.tsx'));
  const outDir = resolve(options.outDir ?? join(root, 'dist'));
  const publicDir = join(outDir, 'public');
  const localesDir = resolve(options.localesDir ?? join(root, 'locales'));
  const staticDir = resolve(options.staticDir ?? join(root, 'static'));
  const log = options.log ?? (() => {});
  if (!existsSync(entry)) throw new Error(`The client entry ${relative(root, entry)} does not exist yet: nothing to build.`);

  const routes = resolve(options.routes ?? join(root, 'client/areas.ts'));
  const app = resolve(options.app ?? join(root, 'client/app.ts'));

  rmSync(publicDir, { recursive: true, force: true });
  mkdirSync(join(publicDir, 'assets/i18n'), { recursive: true });

  const common: esbuild.BuildOptions = {
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    splitting: true,
    minify: true,
    outdir: join(publicDir, 'assets'),
    publicPath: '/assets',
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    sourcemap: 'linked',
    metafile: true,
    target: TARGET,
    define: { 'process.env.NODE_ENV': '"production"', __AREA_FILES__: AREA_FILES_PLACEHOLDER },
    jsx: 'automatic',
    jsxImportSource: 'react',
    alias: clientAliases,
    loader: { '.svg': 'file', '.png': 'file', '.woff2': 'file', '.woff': 'file' },
    legalComments: 'linked',
    logLevel: 'warning',
  };
  // 1. The module graph alone (nothing written): areas, shared modules, stylesheets in import order.
  const analysis = await esbuild.build({ ...common, write: false, plugins: [collectCssPlugin()] });
  const graph = readGraph(analysis.metafile!, root, entry, routes, app);
  // 2. The scripts, each shared module with one home (the app chunk).
  const result = await esbuild.build({ ...common, plugins: [collectCssPlugin(), oneHomePlugin(root, graph, app)] });
  const metafile = result.metafile!;
  const toUrl = (key: string) => `/${relative(publicDir, resolve(root, key)).split(sep).join('/')}`;
  const keyOf = (source: string) => Object.entries(metafile.outputs).find(([key, output]) => output.entryPoint === source && key.endsWith('.js'))?.[0];
  const entryRel = relative(root, entry).split(sep).join('/');
  const entryKey = keyOf(entryRel);
  if (!entryKey) throw new Error(`esbuild produced no output for ${entryRel}`);
  const folded = await foldEntryChunks(metafile, root, publicDir, entryKey);
  await minifyAgain(resolve(root, entryKey), AREA_FILES_PLACEHOLDER);

  // 3. The stylesheets.
  const sheet = await appSheet(graph.css, root, TARGET);
  writeFileSync(join(publicDir, 'assets/app.css'), sheet.css);
  writeFileSync(join(publicDir, 'assets/app.css.map'), sheet.map);
  writeFileSync(join(publicDir, 'assets/login.css'), firstScreenSheet(sheet.css));

  // 4. Final names. An area needs its own script and what it imports statically (the app chunk).
  const areaKeys = new Map([...graph.areas, ['app', relative(root, app).split(sep).join('/')]].map(([name, source]) => [name, keyOf(source)]));
  const stems = new Map<string, string>([[entryKey, 'main']]);
  for (const [name, key] of areaKeys) if (key) stems.set(key, name);
  const files: Renameable[] = [
    { url: '/assets/app.css', stem: 'app' },
    { url: '/assets/login.css', stem: 'login' },
  ];
  for (const key of Object.keys(metafile.outputs)) {
    if (folded.has(key) || key.endsWith('.map') || !existsSync(resolve(root, key))) continue;
    const file = basename(key);
    files.push({ url: toUrl(key), stem: stems.get(key) ?? (key.endsWith('.js') ? 'chunk' : file.slice(0, file.lastIndexOf('-'))) });
  }
  const areaScripts = (finalUrl: (old: string) => string) =>
    Object.fromEntries(
      [...areaKeys]
        .filter(([, key]) => key)
        .map(([name, key]) => [
          name,
          staticClosure(metafile, key!)
            .filter((k) => !folded.has(k) && k !== entryKey)
            .map((k) => finalUrl(toUrl(k))),
        ]),
    );
  files.find((f) => f.url === toUrl(entryKey))!.finish = (text, finalUrl) => {
    if (graph.areas.size > 0 && !text.includes(AREA_FILES_PLACEHOLDER))
      throw new Error('The entry does not read the area table (client/lib/areas.ts): areas would load without their files being fetched first');
    return text.split(AREA_FILES_PLACEHOLDER).join(`(${JSON.stringify({ css: finalUrl('/assets/app.css'), files: areaScripts(finalUrl) })})`);
  };
  const renamed = nameByContent(publicDir, files);
  const final = (url: string) => renamed.get(url) ?? url;
  const manifest: BuildManifest = {
    entry: final(toUrl(entryKey)),
    css: [final('/assets/login.css')],
    appCss: final('/assets/app.css'),
    // Folded into the entry: the first screen is the page, one stylesheet, one script and the dictionary.
    preload: [],
    areas: areaScripts(final),
  };

  writeTexts(localesDir, join(publicDir, 'assets/i18n'));
  if (existsSync(staticDir)) cpSync(staticDir, publicDir, { recursive: true });
  writeFileSync(join(publicDir, 'index.html'), renderTemplate(manifest));
  const compressed = await precompress(publicDir);
  writeFileSync(join(outDir, 'meta.json'), JSON.stringify(metafile));
  writeFileSync(join(outDir, 'build-manifest.json'), JSON.stringify(manifest, null, 2));
  log(`built ${manifest.entry} (${Object.keys(manifest.areas).length} areas), ${compressed} text files precompressed`);
  return manifest;
}

/**
 * Re-serialised without whitespace: the German file is part of the first-screen budget. A dictionary
 * (locales/<lang>.json) is split into its first-screen sections and the rest (scripts/build-texts.ts); documents
 * (long texts one area shows, locales/<name>/<lang>.json) go to assets/i18n/<name>/ and are loaded with that area.
 */
function writeTexts(localesDir: string, i18nDir: string): void {
  const write = (file: string, texts: unknown) => {
    mkdirSync(dirname(join(i18nDir, file)), { recursive: true });
    writeFileSync(join(i18nDir, file), JSON.stringify(texts));
  };
  for (const file of readdirSync(localesDir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.json'))) {
    const texts = JSON.parse(readFileSync(join(localesDir, file), 'utf8'));
    if (file.includes(sep) || file.includes('/')) {
      write(file, texts);
      continue;
    }
    const { firstScreen, app } = splitDictionary(texts);
    write(file, firstScreen);
    write(`${APP_TEXTS}/${file}`, app);
  }
}

/** True when some source is newer than the last build (or there is none). */
export function needsBuild(options: BuildOptions = {}): boolean {
  const root = resolve(options.root ?? ROOT);
  const stamp = join(resolve(options.outDir ?? join(root, 'dist')), 'build-manifest.json');
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  const sources = ['client', 'locales', 'static'].map((dir) => join(root, dir));
  for (const dir of sources) {
    if (!existsSync(dir)) continue;
    for (const file of walk(dir)) if (statSync(file).mtimeMs > built) return true;
  }
  const scripts = ['build.ts', 'build-css.ts', 'build-fold.ts', 'build-graph.ts', 'build-minify.ts', 'build-names.ts', 'build-output.ts', 'aliases.ts'].map(
    (f) => `scripts/${f}`,
  );
  for (const file of [...scripts, 'package-lock.json'].map((f) => join(root, f))) {
    if (existsSync(file) && statSync(file).mtimeMs > built) return true;
  }
  return false;
}

if (import.meta.main) {
  const ifNeeded = process.argv.includes('--if-needed');
  if (ifNeeded && !needsBuild()) {
    console.log('build: dist is up to date');
  } else {
    const started = Date.now();
    try {
      await build({ log: (line) => console.log(`build: ${line}`) });
      console.log(`build: done in ${Date.now() - started} ms`);
    } catch (error) {
      console.error(`build failed: ${(error as Error).message}`);
      process.exit(1);
    }
  }
}

import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import * as esbuild from 'esbuild';
import { LANG_PLACEHOLDER, SENTRY_PLACEHOLDER, TITLE_PLACEHOLDER } from '../server/page.ts';
import { clientAliases } from './aliases.ts';

/**
 * Client build: client/main.tsx -> dist/public (index.html template + hashed assets + locales + static/).
 * The gateway fills the template's placeholders per instance (title, Sentry DSN) and serves the folder.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Files the build writes .br and .gz copies for (the gateway serves them per Accept-Encoding). */
const TEXT_EXTENSIONS = new Set(['.js', '.css', '.map', '.json', '.html', '.svg', '.txt', '.xml', '.webmanifest']);

export interface BuildOptions {
  root?: string;
  /** Default <root>/client/main.tsx. */
  entry?: string;
  /** Default <root>/dist; the served files go to <outDir>/public. */
  outDir?: string;
  localesDir?: string;
  staticDir?: string;
  log?: (line: string) => void;
}

export interface BuildManifest {
  /** URL paths. */
  entry: string;
  css: string[];
  /** Chunks the entry imports statically (they are modulepreloaded). */
  preload: string[];
  /** Dynamic entry point (source path relative to root) -> its JS file plus the chunks it imports statically. */
  lazy: Record<string, string[]>;
}

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

function* walk(dir: string): Generator<string> {
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

const TARGET = ['chrome100', 'edge100', 'firefox100', 'safari15'];

/** Inserts a stylesheet link once and resolves when it has loaded (or failed: the screen still works unstyled). */
const STYLESHEET_LOADER = `const loading = new Map();
export function loadStylesheet(href) {
  let done = loading.get(href);
  if (!done) {
    done = new Promise((resolve) => {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = href;
      link.onload = link.onerror = () => resolve();
      document.head.append(link);
    });
    loading.set(href, done);
  }
  return done;
}`;

/**
 * esbuild folds the CSS of every lazily imported module into the entry's stylesheet, so each screen's CSS
 * would weigh on the first screen. This plugin keeps CSS imported by the entry itself (global styles) in the
 * entry bundle and turns every other CSS import into its own minified, hashed file that the importing module
 * loads with a <link> before it runs (top-level await, so the screen never renders unstyled).
 */
function lazyCssPlugin(entry: string): esbuild.Plugin {
  return {
    name: 'lazy-css',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /\.css$/ }, async (args) => {
        if (args.namespace !== 'file' || args.importer === entry || args.importer.endsWith('.css') || args.pluginData === 'lazy-css') return undefined;
        const resolved = await pluginBuild.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, importer: args.importer, pluginData: 'lazy-css' });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        return { path: resolved.path, namespace: 'lazy-css' };
      });
      pluginBuild.onLoad({ filter: /.*/, namespace: 'lazy-css' }, (args) => ({
        contents: `import href from ${JSON.stringify(`${args.path}?stylesheet`)};\nimport { loadStylesheet } from 'lazy-css:loader';\nawait loadStylesheet(href);\n`,
        resolveDir: dirname(args.path),
        loader: 'js',
      }));
      pluginBuild.onResolve({ filter: /^lazy-css:loader$/ }, () => ({ path: 'loader', namespace: 'lazy-css-loader' }));
      pluginBuild.onLoad({ filter: /.*/, namespace: 'lazy-css-loader' }, () => ({ contents: STYLESHEET_LOADER, loader: 'js' }));
      pluginBuild.onResolve({ filter: /\?stylesheet$/ }, (args) => ({ path: args.path.slice(0, -'?stylesheet'.length), namespace: 'stylesheet-file' }));
      pluginBuild.onLoad({ filter: /.*/, namespace: 'stylesheet-file' }, async (args) => {
        const css = await esbuild.build({ entryPoints: [args.path], bundle: true, minify: true, write: false, target: TARGET, logLevel: 'silent' });
        return { contents: css.outputFiles[0].contents, loader: 'file' };
      });
    },
  };
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

/** The outputs a module needs before it runs: itself and, transitively, what it imports statically. */
function staticClosure(metafile: esbuild.Metafile, start: string): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of metafile.outputs[key]?.imports ?? []) {
      if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
    }
  };
  visit(start);
  return [...seen];
}

/** Where the folded entry publishes the module namespaces of the chunks it absorbed (see foldEntryChunks). */
const CHUNK_REGISTRY = 'Symbol.for("coach-portal.chunks")';

/**
 * esbuild's code splitting puts every module that the entry shares with a lazy screen into its own chunk, so
 * the first screen needed a dozen requests (budget: page, stylesheet, one script, dictionary). This pass folds
 * the chunks the entry imports statically into the entry file itself, which then publishes their module
 * namespaces in a registry; every lazy chunk that imported one of them now reads it from that registry
 * instead of fetching a URL. Lazy code therefore shares the entry's single Preact, signals and session
 * instances, and never references the entry's URL.
 *
 * File names stay esbuild's: a folded file is a fixed function of esbuild's output for it, and esbuild's hash
 * of an output already covers the names (so the contents) of every chunk it imports. A cached lazy chunk is
 * therefore valid with any entry that publishes the chunks it names.
 */
async function foldEntryChunks(metafile: esbuild.Metafile, root: string, publicDir: string, entryKey: string): Promise<Set<string>> {
  const folded = new Set(staticClosure(metafile, entryKey).filter((key) => key !== entryKey));
  if (folded.size === 0) return folded;
  const fileOf = (key: string) => resolve(root, key);
  const urlOf = (key: string) => '/' + relative(publicDir, fileOf(key)).split(sep).join('/');
  const keyByUrl = new Map(Object.keys(metafile.outputs).map((key) => [urlOf(key), key]));
  const registryKey = (key: string) => JSON.stringify(urlOf(key));
  const common = { bundle: true, format: 'esm', minify: true, target: TARGET, sourcemap: 'linked', publicPath: '/assets', legalComments: 'none', allowOverwrite: true, logLevel: 'warning' } as const;

  /** Import paths between outputs are absolute (/assets/...): map them to files, bundling only what `bundle` accepts. */
  const resolver = (name: string, bundle: (key: string) => esbuild.OnResolveResult | undefined): esbuild.Plugin => ({
    name,
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^\/assets\// }, (args) => {
        const key = keyByUrl.get(args.path);
        return (key === undefined ? undefined : bundle(key)) ?? { path: args.path, external: true };
      });
    },
  });

  // 1. The entry: registry first (module evaluation order), then the entry's own code, all in one file.
  const registry = [...folded].map((key, i) => `import * as m${i} from ${JSON.stringify(urlOf(key))};`).join('\n')
    + `\nglobalThis[${CHUNK_REGISTRY}] = Object.freeze({ ${[...folded].map((key, i) => `${registryKey(key)}: m${i}`).join(', ')} });\n`;
  await esbuild.build({
    ...common,
    stdin: { contents: `import "fold:registry";\nimport ${JSON.stringify(urlOf(entryKey))};\n`, resolveDir: publicDir, sourcefile: 'entry.js' },
    outfile: fileOf(entryKey),
    plugins: [
      {
        name: 'fold-registry',
        setup(pluginBuild) {
          pluginBuild.onResolve({ filter: /^fold:registry$/ }, () => ({ path: 'registry', namespace: 'fold' }));
          pluginBuild.onLoad({ filter: /.*/, namespace: 'fold' }, () => ({ contents: registry, resolveDir: publicDir, loader: 'js' }));
        },
      },
      resolver('fold-entry', (key) => (key === entryKey || folded.has(key) ? { path: fileOf(key) } : undefined)),
    ],
  });

  // 2. Every other script that imported a folded chunk reads it from the registry instead.
  for (const [key, output] of Object.entries(metafile.outputs)) {
    if (!key.endsWith('.js') || key === entryKey || folded.has(key)) continue;
    if (!output.imports.some((imported) => folded.has(imported.path))) continue;
    await esbuild.build({
      ...common,
      entryPoints: [fileOf(key)],
      outfile: fileOf(key),
      plugins: [
        {
          name: 'fold-reader',
          setup(pluginBuild) {
            pluginBuild.onLoad({ filter: /.*/, namespace: 'fold-chunk' }, (args) => {
              const names = metafile.outputs[args.path].exports;
              const lines = [`const m = globalThis[${CHUNK_REGISTRY}][${registryKey(args.path)}];`];
              names.forEach((exported, i) => lines.push(`const v${i} = m[${JSON.stringify(exported)}];`));
              lines.push(`export { ${names.map((exported, i) => `v${i} as ${exported}`).join(', ')} };`);
              return { contents: lines.join('\n'), loader: 'js' };
            });
          },
        },
        resolver('fold-lazy', (imported) => (folded.has(imported) ? { path: imported, namespace: 'fold-chunk' } : undefined)),
      ],
    });
  }
  for (const key of folded) {
    for (const file of [fileOf(key), `${fileOf(key)}.map`]) rmSync(file, { force: true });
  }
  return folded;
}

export async function build(options: BuildOptions = {}): Promise<BuildManifest> {
  const root = resolve(options.root ?? ROOT);
  const entry = resolve(options.entry ?? join(root, 'client/main.tsx'));
  const outDir = resolve(options.outDir ?? join(root, 'dist'));
  const publicDir = join(outDir, 'public');
  const localesDir = resolve(options.localesDir ?? join(root, 'locales'));
  const staticDir = resolve(options.staticDir ?? join(root, 'static'));
  const log = options.log ?? (() => {});
  if (!existsSync(entry)) throw new Error(`The client entry ${relative(root, entry)} does not exist yet: nothing to build.`);

  rmSync(publicDir, { recursive: true, force: true });
  mkdirSync(join(publicDir, 'assets/i18n'), { recursive: true });

  const result = await esbuild.build({
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
    plugins: [lazyCssPlugin(entry)],
    define: { 'process.env.NODE_ENV': '"production"' },
    jsx: 'automatic',
    jsxImportSource: 'react',
    alias: clientAliases,
    loader: { '.svg': 'file', '.png': 'file', '.woff2': 'file', '.woff': 'file' },
    legalComments: 'linked',
    logLevel: 'warning',
  });
  const metafile = result.metafile;
  const toUrl = (key: string) => '/' + relative(publicDir, resolve(root, key)).split(sep).join('/');
  const entryRel = relative(root, entry).split(sep).join('/');
  const outputs = Object.entries(metafile.outputs);
  const entryKey = outputs.find(([, output]) => output.entryPoint === entryRel)?.[0];
  if (!entryKey) throw new Error(`esbuild produced no output for ${entryRel}`);

  // Only the entry's own (global) CSS is linked; screens load theirs through lazyCssPlugin.
  const entryCss = metafile.outputs[entryKey].cssBundle;
  const folded = await foldEntryChunks(metafile, root, publicDir, entryKey);
  const lazy: Record<string, string[]> = {};
  for (const [key, output] of outputs) {
    if (output.entryPoint && key !== entryKey && key.endsWith('.js')) {
      lazy[output.entryPoint] = staticClosure(metafile, key).filter((chunk) => !folded.has(chunk) && chunk !== entryKey).map(toUrl);
    }
  }
  const manifest: BuildManifest = {
    entry: toUrl(entryKey),
    css: entryCss ? [toUrl(entryCss)] : [],
    // Folded into the entry: the first screen is the page, one stylesheet, one script and the dictionary.
    preload: [],
    lazy,
  };

  for (const file of readdirSync(localesDir).filter((name) => name.endsWith('.json'))) {
    // Re-serialised without whitespace: the German file is part of the first-screen budget.
    const dictionary = JSON.parse(readFileSync(join(localesDir, file), 'utf8'));
    writeFileSync(join(publicDir, 'assets/i18n', file), JSON.stringify(dictionary));
  }
  if (existsSync(staticDir)) cpSync(staticDir, publicDir, { recursive: true });
  writeFileSync(join(publicDir, 'index.html'), renderTemplate(manifest));
  const compressed = await precompress(publicDir);
  writeFileSync(join(outDir, 'meta.json'), JSON.stringify(metafile));
  writeFileSync(join(outDir, 'build-manifest.json'), JSON.stringify(manifest, null, 2));
  log(`built ${manifest.entry} (+${manifest.preload.length} preloaded chunks, ${Object.keys(lazy).length} lazy areas), ${compressed} text files precompressed`);
  return manifest;
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
  for (const file of ['scripts/build.ts', 'scripts/aliases.ts', 'package-lock.json'].map((f) => join(root, f))) {
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

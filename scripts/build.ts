import { cpSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { clientAliases } from './aliases.ts';
import { firstScreenSheet } from './build-css.ts';
import { precompress, renderTemplate, walk } from './build-output.ts';
import { writeTexts } from './build-texts.ts';

export { precompress, renderTemplate };

/**
 * Client build: client/main.tsx -> dist/public (index.html template, assets, dictionaries, static/). One esbuild
 * run with code splitting: the entry, one file per lazy area (each dynamic import of the route table) and the
 * chunks esbuild cuts for what they share, every file named [name]-[hash] by esbuild. The metafile says which
 * files each of them imports, so the page preloads the entry's, and client/lib/areas.ts those of an area, in
 * parallel instead of one import at a time. The gateway fills the template's placeholders per instance.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TARGET = ['chrome100', 'edge100', 'firefox100', 'safari15'];

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
  /** The first-screen sheet (linked by the page). */
  css: string[];
  /** Every stylesheet the entry imports: the shell and every area wait for it. */
  appCss: string;
  /** Chunks the entry imports, directly or through others: the page modulepreloads them. */
  preload: string[];
  /** Area name -> the scripts it needs besides the entry's: its own and the chunks it imports. */
  areas: Record<string, string[]>;
}

export async function build(options: BuildOptions = {}): Promise<BuildManifest> {
  const root = resolve(options.root ?? ROOT);
  const entry = resolve(options.entry ?? join(root, 'client/main.tsx'));
  const publicDir = join(resolve(options.outDir ?? join(root, 'dist')), 'public');
  if (!existsSync(entry)) throw new Error(`The client entry ${relative(root, entry)} does not exist yet: nothing to build.`);
  rmSync(publicDir, { recursive: true, force: true });

  const { metafile } = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    splitting: true,
    minify: true,
    target: TARGET,
    outdir: join(publicDir, 'assets'),
    publicPath: '/assets',
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    // External: no file names its own map (the gateway sends a SourceMap header instead).
    sourcemap: 'external',
    legalComments: 'linked',
    metafile: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    jsx: 'automatic',
    jsxImportSource: 'react',
    alias: clientAliases,
    loader: { '.svg': 'file', '.png': 'file', '.woff2': 'file', '.woff': 'file' },
    logLevel: 'warning',
  });
  const toUrl = (key: string) => `/${relative(publicDir, resolve(root, key)).split(sep).join('/')}`;
  const entryKey = relative(root, entry).split(sep).join('/');
  const outputOf = (source: string) => Object.keys(metafile.outputs).find((key) => metafile.outputs[key].entryPoint === source && key.endsWith('.js'))!;
  const main = outputOf(entryKey);
  const appCss = metafile.outputs[main].cssBundle;
  if (!appCss) throw new Error(`${entryKey} imports no stylesheet: the first screen would be unstyled`);
  const first = new Set(imported(metafile, main));

  const manifest: BuildManifest = {
    entry: toUrl(main),
    css: [await writeFirstScreenSheet(root, appCss, metafile).then(toUrl)],
    appCss: toUrl(appCss),
    preload: [...first].filter((key) => key !== main).map(toUrl),
    areas: {},
  };
  // Every dynamic import is an area. esbuild's stylesheet of the entry holds the CSS of every module it imports,
  // lazily too: it is the app sheet, and an area needs no sheet of its own.
  const appSheet = Object.keys(metafile.outputs[appCss].inputs);
  for (const [key, output] of Object.entries(metafile.outputs)) {
    if (!output.entryPoint || key === main || !key.endsWith('.js')) continue;
    const missing = Object.keys(metafile.outputs[output.cssBundle ?? '']?.inputs ?? {}).filter((file) => !appSheet.includes(file));
    if (missing.length > 0) throw new Error(`The app sheet lacks ${missing.join(', ')}: ${output.entryPoint} would be unstyled`);
    manifest.areas[areaName(output.entryPoint)] = imported(metafile, key)
      .filter((file) => !first.has(file))
      .map(toUrl);
  }

  writeTexts(resolve(options.localesDir ?? join(root, 'locales')), join(publicDir, 'assets/i18n'));
  const staticDir = resolve(options.staticDir ?? join(root, 'static'));
  if (existsSync(staticDir)) cpSync(staticDir, publicDir, { recursive: true });
  writeFileSync(join(publicDir, 'index.html'), renderTemplate(manifest));
  const compressed = await precompress(publicDir);
  writeFileSync(join(publicDir, '../meta.json'), JSON.stringify(metafile));
  writeFileSync(join(publicDir, '../build-manifest.json'), JSON.stringify(manifest, null, 2));
  options.log?.(`built ${manifest.entry} (${Object.keys(manifest.areas).length} areas), ${compressed} text files precompressed`);
  return manifest;
}

/** A script and every script it imports statically, directly or through others: what must be fetched before it runs. */
function imported(metafile: esbuild.Metafile, start: string): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of metafile.outputs[key].imports) if (next.kind === 'import-statement' && !next.external) visit(next.path);
  };
  visit(start);
  return [...seen];
}

/** dashboard for client/features/dashboard/index.tsx, app for client/app.ts (esbuild's [name] too). */
export function areaName(path: string): string {
  const file = basename(path, extname(path));
  return (file === 'index' ? basename(dirname(path)) : file).toLowerCase();
}

/**
 * The first-screen sheet is cut from the entry's stylesheet (scripts/build-css.ts), then handed to esbuild like
 * any other file so that it, too, is named after its bytes by esbuild. Its outputs join the metafile.
 */
async function writeFirstScreenSheet(root: string, appCss: string, metafile: esbuild.Metafile): Promise<string> {
  const result = await esbuild.build({
    absWorkingDir: root,
    stdin: { contents: firstScreenSheet(readFileSync(join(root, appCss), 'utf8')), loader: 'css', sourcefile: 'login.css' },
    outdir: join(root, dirname(appCss)),
    entryNames: 'login-[hash]',
    minify: true,
    target: TARGET,
    legalComments: 'inline',
    metafile: true,
    logLevel: 'warning',
  });
  Object.assign(metafile.outputs, result.metafile.outputs);
  return Object.keys(result.metafile.outputs)[0];
}

/** True when some source is newer than the last build (or there is none). */
export function needsBuild(options: BuildOptions = {}): boolean {
  const root = resolve(options.root ?? ROOT);
  const stamp = join(resolve(options.outDir ?? join(root, 'dist')), 'build-manifest.json');
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  const sources = [...['client', 'locales', 'static'].flatMap((dir) => (existsSync(join(root, dir)) ? [...walk(join(root, dir))] : []))];
  for (const file of ['build.ts', 'build-css.ts', 'build-output.ts', 'build-texts.ts', 'aliases.ts'].map((f) => `scripts/${f}`).concat('package-lock.json'))
    sources.push(join(root, file));
  return sources.some((file) => existsSync(file) && statSync(file).mtimeMs > built);
}

if (import.meta.main) {
  if (process.argv.includes('--if-needed') && !needsBuild()) {
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

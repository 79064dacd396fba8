import { cpSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { clientAliases } from './aliases.ts';
import { firstScreenSheet } from './build-css.ts';
import { files, precompress, renderTemplate } from './build-output.ts';
import { writeTexts } from './build-texts.ts';

/**
 * Client build: client/main.tsx -> dist/public, one esbuild run with code splitting. The metafile says which chunks
 * each script imports: the page modulepreloads the first screen's, client/lib/areas.ts an area's, all at once.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = 'client/main.tsx';
const TARGET = ['chrome100', 'edge100', 'firefox100', 'safari15'];

/** outDir defaults to <root>/dist; the served files go to <outDir>/public. */
export type BuildOptions = { root?: string; outDir?: string };

/**
 * URL paths: the page's script, its first-screen sheet, esbuild's app sheet (every module's CSS, lazy ones too), the
 * chunks the page modulepreloads, and per area its script and the chunks it imports that the first screen has not.
 */
export type BuildManifest = { entry: string; css: string[]; appCss: string; preload: string[]; areas: Record<string, string[]> };

export async function build(options: BuildOptions = {}): Promise<BuildManifest> {
  const root = resolve(options.root ?? ROOT);
  const publicDir = join(resolve(options.outDir ?? join(root, 'dist')), 'public');
  if (!existsSync(join(root, ENTRY))) throw new Error(`The client entry ${ENTRY} does not exist yet: nothing to build.`);
  rmSync(publicDir, { recursive: true, force: true });
  const common = { absWorkingDir: root, bundle: true, minify: true, target: TARGET, metafile: true, logLevel: 'warning' } as const;
  // Source maps are named by no file: the gateway sends a SourceMap header.
  const names: esbuild.BuildOptions = { entryNames: '[name]-[hash]', chunkNames: '[name]-[hash]', sourcemap: 'external', legalComments: 'linked' };
  const jsx: esbuild.BuildOptions = { jsx: 'automatic', jsxImportSource: 'react', alias: clientAliases, plugins: [dependsOnWhatRunsFirst] };
  const split: esbuild.BuildOptions = { entryPoints: [ENTRY], format: 'esm', splitting: true, outdir: join(publicDir, 'assets'), publicPath: '/assets' };
  const { metafile } = await esbuild.build({ ...split, ...names, ...jsx, ...common });
  const outputs = Object.entries(metafile.outputs);
  const main = outputs.find(([key, output]) => output.entryPoint === ENTRY && key.endsWith('.js'))![0];
  const appCss = metafile.outputs[main].cssBundle;
  if (!appCss) throw new Error(`${ENTRY} imports no stylesheet: the first screen would be unstyled`);
  // The first-screen sheet is cut from the app sheet, then handed to esbuild to be named like every other file.
  const login = await esbuild.build({
    ...common,
    stdin: { contents: firstScreenSheet(readFileSync(join(root, appCss), 'utf8')), loader: 'css' },
    outdir: join(root, dirname(appCss)),
    entryNames: 'login-[hash]',
    legalComments: 'inline',
  });
  Object.assign(metafile.outputs, login.metafile.outputs);

  const url = (key: string) => `/${relative(publicDir, resolve(root, key)).split(sep).join('/')}`;
  const first = imports(metafile, pageScript(metafile, main));
  // Every other entry of the metafile is a dynamic import: an area, which esbuild named after its module.
  const lazy = outputs.filter(([key, output]) => output.entryPoint && key !== main && key.endsWith('.js')).map(([key]) => key);
  const needs = (key: string) => imports(metafile, key).filter((file) => !first.includes(file));
  const areas = Object.fromEntries(lazy.map((key) => [basename(key).replace(/-\w{8}\.js$/, ''), needs(key).map(url)]));
  const css = Object.keys(login.metafile.outputs).map(url);
  const manifest: BuildManifest = { entry: url(first[0]), css, appCss: url(appCss), preload: first.slice(1).map(url), areas };

  writeTexts(join(root, 'locales'), join(publicDir, 'assets/i18n'));
  if (existsSync(join(root, 'static'))) cpSync(join(root, 'static'), publicDir, { recursive: true });
  writeFileSync(join(publicDir, 'index.html'), renderTemplate(manifest));
  const compressed = await precompress(publicDir);
  writeFileSync(join(publicDir, '../meta.json'), JSON.stringify(metafile));
  writeFileSync(join(publicDir, '../build-manifest.json'), JSON.stringify(manifest, null, 2));
  console.log(`build: ${manifest.entry} and ${Object.keys(manifest.areas).length} lazy scripts, ${compressed} text files precompressed`);
  return manifest;
}

/**
 * esbuild cuts a chunk per set of entries that reach a module, so the first screen would come as seven chunks and an
 * area as twenty. So every lazy module of the client imports what always runs before it (the entry, and for an area
 * client/app.ts too): the first screen becomes one chunk that the page loads itself, the app module one more.
 */
const dependsOnWhatRunsFirst: esbuild.Plugin = {
  name: 'depends-on-what-runs-first',
  setup(build) {
    const client = join(build.initialOptions.absWorkingDir!, 'client');
    const lazy = new Set<string>();
    const note = ({ kind, resolveDir, path }: esbuild.OnResolveArgs) =>
      kind === 'dynamic-import' && resolveDir.startsWith(client) && lazy.add(resolve(resolveDir, path));
    build.onResolve({ filter: /^\./ }, (args) => void note(args));
    build.onLoad({ filter: /\.tsx?$/ }, ({ path }) => {
      if (!lazy.has(path)) return undefined;
      const first = /[\\/]features[\\/][^\\/]+[\\/]index\.tsx$/.test(path) ? [ENTRY, 'client/app.ts'] : [ENTRY];
      const lines = first.map((file) => `import ${JSON.stringify(join(client, '..', file))};\n`);
      return { contents: lines.join('') + readFileSync(path, 'utf8'), loader: path.endsWith('x') ? 'tsx' : 'ts' };
    });
  },
};

/** The entry's file only imports the chunk its code moved to (see above): the page loads that chunk, a round trip less. */
function pageScript(metafile: esbuild.Metafile, main: string): string {
  const { imports: next, inputs } = metafile.outputs[main];
  return next.length === 1 && Object.values(inputs).every((input) => input.bytesInOutput === 0) ? next[0].path : main;
}

/** A script and every script it imports statically, directly or through others: all of it is fetched before it runs. */
function imports(metafile: esbuild.Metafile, start: string, seen: string[] = []): string[] {
  if (seen.includes(start)) return seen;
  seen.push(start);
  for (const next of metafile.outputs[start].imports) if (next.kind === 'import-statement' && !next.external) imports(metafile, next.path, seen);
  return seen;
}

/** True when some source is newer than the last build (or there is none). */
export function needsBuild(options: BuildOptions = {}): boolean {
  const root = resolve(options.root ?? ROOT);
  const stamp = join(resolve(options.outDir ?? join(root, 'dist')), 'build-manifest.json');
  if (!existsSync(stamp)) return true;
  const sources = ['client', 'locales', 'static', 'scripts'].flatMap((dir) => (existsSync(join(root, dir)) ? files(join(root, dir)) : []));
  return [...sources, join(root, 'package-lock.json')].some((file) => existsSync(file) && statSync(file).mtimeMs > statSync(stamp).mtimeMs);
}

if (import.meta.main && process.argv.includes('--if-needed') && !needsBuild()) console.log('build: dist is up to date');
else if (import.meta.main) {
  const started = Date.now();
  await build().catch((error: Error) => {
    console.error(`build failed: ${error.message}`);
    process.exit(1);
  });
  console.log(`build: done in ${Date.now() - started} ms`);
}

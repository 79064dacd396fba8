import { readFileSync } from 'node:fs';
import { basename, dirname, extname, relative, resolve, sep } from 'node:path';
import type * as esbuild from 'esbuild';

/**
 * How the client's code is cut into files (scripts/build.ts runs esbuild twice: once to learn the module
 * graph, once to write the files):
 *
 * - the ENTRY: everything the first screen needs (client/main.tsx and what it imports statically);
 * - one chunk per AREA: each dynamic import of the area table (client/areas.ts) with the code only it uses;
 * - the APP chunk: the app module (client/app.ts: the shell and the API layer) and every module that two or
 *   more areas share.
 *
 * esbuild's code splitting gives each set of entry points that share a module its own chunk: with a dozen
 * areas that made some 40 chunks of 1-5 KB, fetched in waves. Here every area imports the app module (the
 * import is appended to the area's source while bundling), and the app module imports every shared module:
 * each shared module is then reached by the same set of entry points (the app module and every area), so
 * esbuild puts all of them into one chunk. What the entry shares with the rest lands in one more chunk,
 * which the build folds into the entry (scripts/build-fold.ts) so the first screen stays one script.
 */

export interface ModuleGraph {
  /** Area name -> source path (relative to the project root) of its module. */
  areas: Map<string, string>;
  /** Source paths of the modules the app module must import so that each has exactly one home. */
  shared: string[];
  /** CSS files (absolute) in the order the code imports them, the entry's first. */
  css: string[];
}

/** Stylesheets never reach esbuild's JS graph: each import becomes an empty module named after the file. */
export const CSS_NAMESPACE = 'collected-css';

/** dashboard for client/features/dashboard/index.tsx, app for client/app.ts. */
export function areaName(path: string): string {
  const file = basename(path, extname(path));
  return (file === 'index' ? basename(dirname(path)) : file).toLowerCase();
}

type Inputs = esbuild.Metafile['inputs'];

function staticReach(inputs: Inputs, start: string, stop: Set<string> = new Set()): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || stop.has(key) || !inputs[key]) return;
    seen.add(key);
    for (const imported of inputs[key].imports) if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(start);
  return seen;
}

/**
 * Reads the graph of a first, write-less esbuild pass: which modules the route table loads lazily (the
 * areas), which modules are shared (reached statically from two or more of: the entry, the app module, an
 * area), and the CSS files in import order.
 */
export function readGraph(metafile: esbuild.Metafile, root: string, entry: string, routes: string, app: string): ModuleGraph {
  const inputs = metafile.inputs;
  const key = (file: string) => relative(root, file).split(sep).join('/');
  const entryKey = key(entry);
  const appKey = key(app);
  const areas = new Map<string, string>();
  for (const imported of inputs[key(routes)]?.imports ?? []) {
    if (imported.kind === 'dynamic-import' && !imported.external && imported.path !== appKey) areas.set(areaName(imported.path), imported.path);
  }
  if (!inputs[appKey]) throw new Error(`${appKey} (the app module) is not imported by the client: the shell and the API layer need a home`);
  const reach = new Map<string, number>();
  for (const start of [entryKey, appKey, ...areas.values()]) {
    for (const module of staticReach(inputs, start)) reach.set(module, (reach.get(module) ?? 0) + 1);
  }
  const shared = [...reach]
    .filter(([module, count]) => count >= 2 && module !== appKey && !module.startsWith(`${CSS_NAMESPACE}:`) && !module.includes('node_modules/'))
    .map(([module]) => module)
    .sort();

  const css: string[] = [];
  const seen = new Set<string>();
  const walk = (module: string) => {
    if (seen.has(module) || !inputs[module]) return;
    seen.add(module);
    for (const imported of inputs[module].imports) {
      if (imported.path.startsWith(`${CSS_NAMESPACE}:`)) {
        const file = imported.path.slice(CSS_NAMESPACE.length + 1);
        if (!css.includes(file)) css.push(file);
      } else if (!imported.external) {
        walk(imported.path);
      }
    }
  };
  walk(entryKey);
  return { areas, shared, css };
}

/** Turns every CSS import into an empty module: the stylesheets are built on their own (scripts/build-css.ts). */
export function collectCssPlugin(): esbuild.Plugin {
  return {
    name: 'collect-css',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /\.css$/ }, (args) => ({ path: resolve(args.resolveDir, args.path), namespace: CSS_NAMESPACE }));
      pluginBuild.onLoad({ filter: /.*/, namespace: CSS_NAMESPACE }, () => ({ contents: '', loader: 'js' }));
    },
  };
}

/**
 * Appends `import "<app module>"` to every area and `import "<shared module>"` for every shared module to the
 * app module. At the end of the file, so line numbers (and source maps) stay those of the source; imports
 * are hoisted, so where they stand does not change what runs first.
 */
export function oneHomePlugin(root: string, graph: ModuleGraph, app: string): esbuild.Plugin {
  const areaFiles = new Set([...graph.areas.values()].map((path) => resolve(root, path)));
  const appFile = resolve(app);
  const loaders: Record<string, esbuild.Loader> = { '.ts': 'ts', '.tsx': 'tsx', '.js': 'js', '.jsx': 'jsx' };
  return {
    name: 'one-home-for-shared-code',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /\.[jt]sx?$/ }, (args) => {
        let extra: string[];
        if (args.path === appFile) extra = graph.shared.map((path) => resolve(root, path));
        else if (areaFiles.has(args.path)) extra = [appFile];
        else return undefined;
        const source = readFileSync(args.path, 'utf8');
        return { contents: `${source}\n${extra.map((file) => `import ${JSON.stringify(file)};`).join('\n')}\n`, loader: loaders[extname(args.path)] };
      });
    },
  };
}

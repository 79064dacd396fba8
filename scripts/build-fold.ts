import { rmSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import * as esbuild from 'esbuild';

export const TARGET = ['chrome100', 'edge100', 'firefox100', 'safari15'];

/** The outputs a module needs before it runs: itself and, transitively, what it imports statically. */
export function staticClosure(metafile: esbuild.Metafile, start: string): string[] {
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
 * The files this pass writes still carry esbuild's names, which describe esbuild's output, not these bytes:
 * scripts/build-names.ts renames every file after its final bytes afterwards.
 */
export async function foldEntryChunks(metafile: esbuild.Metafile, root: string, publicDir: string, entryKey: string): Promise<Set<string>> {
  const folded = new Set(staticClosure(metafile, entryKey).filter((key) => key !== entryKey));
  if (folded.size === 0) return folded;
  const fileOf = (key: string) => resolve(root, key);
  const urlOf = (key: string) => `/${relative(publicDir, fileOf(key)).split(sep).join('/')}`;
  const keyByUrl = new Map(Object.keys(metafile.outputs).map((key) => [urlOf(key), key]));
  const registryKey = (key: string) => JSON.stringify(urlOf(key));
  const common = {
    bundle: true,
    format: 'esm',
    minify: true,
    target: TARGET,
    sourcemap: 'linked',
    publicPath: '/assets',
    legalComments: 'none',
    allowOverwrite: true,
    logLevel: 'warning',
  } as const;

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
  const registry =
    [...folded].map((key, i) => `import * as m${i} from ${JSON.stringify(urlOf(key))};`).join('\n') +
    `\nglobalThis[${CHUNK_REGISTRY}] = Object.freeze({ ${[...folded].map((key, i) => `${registryKey(key)}: m${i}`).join(', ')} });\n`;
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
              for (const [i, exported] of names.entries()) lines.push(`const v${i} = m[${JSON.stringify(exported)}];`);
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

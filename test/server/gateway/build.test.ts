import { describe, expect } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { build, needsBuild } from '../../../scripts/build.ts';
import { isHashedAsset } from '../../../server/static-files.ts';
import { builtProjectTest, makeBuildProject } from '../../helpers/gateway-build-fixture.ts';

const test = builtProjectTest
  .extend('publicDir', { scope: 'file' }, ({ project, manifest: _ }) => join(project.root, 'dist/public'))
  /** The files the build wrote to assets/. */
  .extend('assets', { scope: 'file' }, ({ publicDir }) => readdirSync(join(publicDir, 'assets')))
  .extend(
    'read',
    { scope: 'file' },
    ({ publicDir }) =>
      (urlPath: string) =>
        readFileSync(join(publicDir, urlPath), 'utf8'),
  )
  /** What the scripts of `urls` import statically, directly or through each other (URLs). */
  .extend('staticImports', { scope: 'file' }, ({ read }) => (urls: string[]): string[] => {
    const seen = new Set<string>();
    const visit = (url: string) => {
      if (seen.has(url)) return;
      seen.add(url);
      for (const [, path] of read(url).matchAll(/(?:from|import)\s*"(\/assets\/[^"]+)"/g)) visit(path);
    };
    urls.forEach(visit);
    return [...seen];
  });
// The build starts here, with a hook's time rather than the first test's.
test.beforeAll(({ manifest: _ }) => {}, 60_000);

/** Every file the gateway caches for a year, with its bytes. */
const immutableFiles = (dir: string) =>
  new Map(
    readdirSync(join(dir, 'assets'))
      .filter((name) => isHashedAsset(`/assets/${name}`))
      .map((name) => [name, readFileSync(join(dir, 'assets', name))]),
  );

describe('the client build', () => {
  test('writes every file the gateway caches for a year exactly as esbuild named it after its content', ({ project, manifest, publicDir, read }) => {
    const meta = JSON.parse(readFileSync(join(project.root, 'dist/meta.json'), 'utf8')) as { outputs: Record<string, { bytes: number }> };
    const written = new Map(Object.entries(meta.outputs).map(([key, output]) => [key.split('/').pop(), output.bytes]));
    const immutable = immutableFiles(publicDir);
    expect([...immutable.keys()].filter((n) => n.endsWith('.js')).length).toBeGreaterThanOrEqual(5);
    // Not one byte changed after esbuild hashed it.
    for (const [name, bytes] of immutable) expect(bytes.length, name).toBe(written.get(name));
    // The page loads the script that holds the entry's code (esbuild's entry file only imports it, see scripts/build.ts).
    expect(manifest.entry).toMatch(/^\/assets\/(main|chunk)-[A-Z2-7]{8}\.js$/);
    expect(read(manifest.entry)).toContain('SHARED-MODULE-TEXT');
    expect(manifest.css).toEqual([expect.stringMatching(/^\/assets\/login-[A-Z2-7]{8}\.css$/)]);
    expect(manifest.appCss).toMatch(/^\/assets\/main-[A-Z2-7]{8}\.css$/);
  });

  test('a change to one module renames every file whose bytes change, and a name never stands for other bytes', async () => {
    const other = makeBuildProject();
    try {
      await build({ root: other.root });
      const before = immutableFiles(join(other.root, 'dist/public'));
      writeFileSync(join(other.root, 'client/lazy-shared.ts'), "export function lazyShared(): string { return 'LAZY-SHARED-CHANGED'; }\n");
      await build({ root: other.root });
      const after = immutableFiles(join(other.root, 'dist/public'));
      const kept = [...after.keys()].filter((name) => before.has(name));
      for (const name of kept) expect(after.get(name)!.equals(before.get(name)!), name).toBe(true);
      const renamed = [...after.keys()].filter((name) => !before.has(name));
      expect(renamed.some((name) => after.get(name)!.includes('LAZY-SHARED-CHANGED'))).toBe(true);
      expect(renamed.filter((name) => name.startsWith('area-') || name.startsWith('second-')).length).toBeGreaterThanOrEqual(2);
      // Every lazy module imports the first screen's chunk, which names the areas' files: a changed area renames the
      // scripts that import that chunk too (scripts/build.ts says why); what did not change keeps its name.
      expect(kept.length).toBeGreaterThan(0);
    } finally {
      other.cleanup();
    }
  });

  test('names each area after its module and lists the chunks it imports, without what the entry brings', ({ manifest, read }) => {
    expect(Object.keys(manifest.areas).sort()).toEqual(['app', 'area', 'second']);
    const [areaJs, ...areaChunks] = manifest.areas.area;
    expect(areaJs).toMatch(/^\/assets\/area-[A-Z2-7]{8}\.js$/);
    expect(manifest.areas.second[0]).toMatch(/^\/assets\/second-[A-Z2-7]{8}\.js$/);
    expect(manifest.areas.app[0]).toMatch(/^\/assets\/app-[A-Z2-7]{8}\.js$/);
    const lazyShared = areaChunks.find((url) => read(url).includes('LAZY-SHARED-TEXT'));
    expect(lazyShared).toBeDefined();
    expect(manifest.areas.second).toContain(lazyShared);
    expect(read(areaJs)).toContain('AREA-ONLY-TEXT');
    for (const files of Object.values(manifest.areas)) for (const url of [manifest.entry, ...manifest.preload]) expect(files).not.toContain(url);
  });

  test('flattens the waterfall: the page preloads every script the entry imports, the area table every script an area imports', ({
    manifest,
    read,
    staticImports,
  }) => {
    expect(staticImports([manifest.entry]).sort()).toEqual([manifest.entry, ...manifest.preload].sort());
    expect([manifest.entry, ...manifest.preload].some((url) => read(url).includes('SHARED-MODULE-TEXT'))).toBe(true);
    const html = read('/index.html');
    for (const url of manifest.preload) expect(html).toContain(`<link rel="modulepreload" href="${url}">`);
    const table = JSON.parse(/<meta name="area-files" content="([^"]*)">/.exec(html)![1].replaceAll('&quot;', '"').replaceAll('&amp;', '&'));
    expect(table).toEqual({ css: manifest.appCss, files: manifest.areas });
    const loaded = new Set([manifest.entry, ...manifest.preload]);
    for (const [name, files] of Object.entries(manifest.areas))
      expect(
        staticImports([files[0]])
          .filter((url) => !loaded.has(url))
          .sort(),
        name,
      ).toEqual([...files].sort());
  });

  test('every script imports only files the build wrote', ({ publicDir, assets }) => {
    for (const name of assets.filter((n) => n.endsWith('.js'))) {
      const code = readFileSync(join(publicDir, 'assets', name), 'utf8');
      for (const [, path] of code.matchAll(/(?:from|import)\s*\(?\s*"(\/assets\/[^"]+)"/g))
        expect(existsSync(join(publicDir, path)), `${name} -> ${path}`).toBe(true);
    }
  });

  test('emits minified ES modules in production mode', ({ manifest, read }) => {
    const entry = read(manifest.entry);
    expect(entry).toMatch(/\bimport\b/);
    expect(entry).not.toContain('DEVELOPMENT-ONLY-MARKER');
    expect(entry).not.toContain('process.env');
    expect(entry.split('\n').length).toBeLessThanOrEqual(3);
  });

  test('resolves react, react-dom and @preact/signals-react to Preact through the shared alias list', ({ project }) => {
    const meta = JSON.parse(readFileSync(join(project.root, 'dist/meta.json'), 'utf8')) as { inputs: Record<string, unknown> };
    const inputs = Object.keys(meta.inputs);
    expect(inputs.some((i) => i.includes('node_modules/preact/compat/'))).toBe(true);
    expect(inputs.some((i) => i.includes('node_modules/@preact/signals/'))).toBe(true);
    expect(inputs.some((i) => i.includes('node_modules/react/') || i.includes('node_modules/react-dom/'))).toBe(false);
  });

  test("links only the first-screen sheet; the app sheet has every stylesheet, the areas' too", ({ manifest, read }) => {
    const first = read(manifest.css[0]);
    expect(first).toContain('body{color:#639}');
    expect(first).not.toContain('.area');
    const app = read(manifest.appCss);
    for (const rule of ['body{color:#639}', '.area{padding:1rem}', '.second{margin:2rem}']) expect(app).toContain(rule);
  });

  test('writes source maps as separate files, not named inside the code (the gateway sends a SourceMap header)', ({ manifest, publicDir, assets }) => {
    const mapped = assets.filter((n) => n.endsWith('.js') || n === manifest.appCss.split('/').pop());
    expect(mapped.length).toBeGreaterThanOrEqual(6);
    for (const name of mapped) {
      expect(assets, name).toContain(`${name}.map`);
      expect(readFileSync(join(publicDir, 'assets', name), 'utf8')).not.toContain('sourceMappingURL');
      expect(JSON.parse(readFileSync(join(publicDir, 'assets', `${name}.map`), 'utf8')).version).toBe(3);
    }
  });

  test('writes .br and .gz beside every text asset, decoding to the same bytes', ({ publicDir }) => {
    const text = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? text(join(dir, e.name)) : /\.(js|css|map|json|html|svg)$/.test(e.name) ? [join(dir, e.name)] : [],
      );
    const files = text(publicDir).filter((f) => f !== join(publicDir, 'index.html'));
    expect(files.length).toBeGreaterThan(6);
    for (const file of files) {
      const original = readFileSync(file);
      expect(brotliDecompressSync(readFileSync(`${file}.br`)).equals(original)).toBe(true);
      expect(gunzipSync(readFileSync(`${file}.gz`)).equals(original)).toBe(true);
    }
  });

  test('generates index.html with the hashed names, the dictionary preload, no inline script and the instance placeholders', ({ manifest, read }) => {
    const html = read('/index.html');
    expect(html).toContain(`<script type="module" src="${manifest.entry}"></script>`);
    expect(html).not.toContain(`<link rel="stylesheet" href="${manifest.appCss}">`);
    for (const href of manifest.css) expect(html).toContain(`<link rel="stylesheet" href="${href}">`);
    expect(html).toContain('<link rel="preload" href="/assets/i18n/%LANG%.json" as="fetch" crossorigin="anonymous">');
    for (const script of html.match(/<script\b[^>]*>[\s\S]*?<\/script>/g) ?? []) expect(script).toMatch(/^<script type="module" src="[^"]+"><\/script>$/);
    expect(html).not.toMatch(/\sstyle=|<style/);
    expect(html).toContain('<title>%APP_TITLE%</title>');
    expect(html).toContain('<meta name="app-title" content="%APP_TITLE%">');
    expect(html).toContain('<div id="app"></div>');
  });

  test('copies the locale files to assets/i18n, minified', ({ read }) => {
    expect(read('/assets/i18n/de.json')).toBe('{"login":{"title":"Anmelden"}}');
    expect(JSON.parse(read('/assets/i18n/en.json'))).toEqual({ login: { title: 'Sign in' } });
  });

  test('copies static/ to the root of the public folder', ({ read }) => {
    expect(read('/internet-explorer-msg.html')).toContain('alt');
  });

  test('--if-needed: nothing to do right after a build, a changed source needs one', ({ project }) => {
    expect(needsBuild({ root: project.root })).toBe(false);
    const later = new Date(Date.now() + 5000);
    utimesSync(join(project.root, 'client/shared.ts'), later, later);
    expect(needsBuild({ root: project.root })).toBe(true);
  });

  test('says clearly when the entry does not exist', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'no-client-'));
    try {
      await expect(build({ root: empty })).rejects.toThrow(/client\/main\.tsx does not exist yet/);
      expect(existsSync(join(empty, 'dist/public'))).toBe(false);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

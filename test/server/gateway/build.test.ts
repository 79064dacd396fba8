import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { existsSync, readFileSync, readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { build, needsBuild } from '../../../scripts/build.ts';
import { contentHash } from '../../../scripts/build-names.ts';
import { isHashedAsset } from '../../../server/static-files.ts';
import type { BuildManifest } from '../../../scripts/build.ts';
import { makeBuildProject } from '../../helpers/gateway-build-fixture.ts';

let project: { root: string; cleanup: () => void };
let manifest: BuildManifest;
let publicDir: string;
let assets: string[];
const read = (urlPath: string) => readFileSync(join(publicDir, urlPath), 'utf8');

beforeAll(async () => {
  project = makeBuildProject();
  manifest = await build({ root: project.root });
  publicDir = join(project.root, 'dist/public');
  assets = readdirSync(join(publicDir, 'assets'));
}, 60_000);
afterAll(() => project.cleanup());

describe('the client build', () => {
  test('names every file the gateway caches for a year after a hash of its final bytes', () => {
    const immutable = assets.filter((name) => isHashedAsset(`/assets/${name}`));
    expect(immutable.filter((n) => n.endsWith('.js')).length).toBeGreaterThanOrEqual(5);
    expect(immutable.filter((n) => n.endsWith('.css'))).toHaveLength(2);
    for (const name of immutable) {
      const hash = /-([A-Z0-9]{8})\.[a-z0-9]+$/.exec(name)![1];
      expect(contentHash(readFileSync(join(publicDir, 'assets', name))), name).toBe(hash);
    }
    expect(manifest.entry).toMatch(/^\/assets\/main-[A-Z2-7]{8}\.js$/);
    expect(manifest.css).toEqual([expect.stringMatching(/^\/assets\/login-[A-Z2-7]{8}\.css$/)]);
    expect(manifest.appCss).toMatch(/^\/assets\/app-[A-Z2-7]{8}\.css$/);
  });

  test('one script per area plus one app chunk: what areas share has a single home, never a chunk of its own', () => {
    expect(Object.keys(manifest.areas).sort()).toEqual(['app', 'area', 'second']);
    const [areaJs, appChunk] = manifest.areas.area;
    expect(areaJs).toMatch(/^\/assets\/area-[A-Z2-7]{8}\.js$/);
    expect(manifest.areas.area).toHaveLength(2);
    expect(manifest.areas.second).toEqual([expect.stringMatching(/^\/assets\/second-/), appChunk]);
    expect(manifest.areas.app).toEqual([expect.stringMatching(/^\/assets\/app-/), appChunk]);
    expect(read(appChunk)).toContain('LAZY-SHARED-TEXT');
    expect(read(appChunk)).toContain('APP-MODULE-TEXT');
    expect(read(areaJs)).toContain('AREA-ONLY-TEXT');
    expect(read(areaJs)).not.toContain('LAZY-SHARED-TEXT');
    expect(read(manifest.areas.second[0])).not.toContain('LAZY-SHARED-TEXT');
  });

  test('the entry carries what it shares with the areas, which read it from the entry, never by URL', () => {
    // The first screen is one script: nothing for the entry to preload.
    expect(manifest.preload).toEqual([]);
    expect(read(manifest.entry)).toContain('SHARED-MODULE-TEXT');
    expect(read(manifest.entry)).not.toMatch(/\bimport\s*[{*"]/);
    const lazyJs = Object.values(manifest.areas).flat().map(read).join('\n');
    expect(lazyJs).not.toContain('SHARED-MODULE-TEXT');
    expect(lazyJs).toContain('Symbol.for("coach-portal.chunks")');
    expect(lazyJs).not.toContain(manifest.entry);
  });

  test("fills the entry's area table with the final names of each area's files and of the app stylesheet", () => {
    const entry = read(manifest.entry);
    expect(entry).not.toContain('__COACH_PORTAL_AREA_FILES__');
    for (const url of [...Object.values(manifest.areas).flat(), manifest.appCss]) expect(entry).toContain(JSON.stringify(url));
  });

  test('every script imports only files the build wrote', () => {
    for (const name of assets.filter((n) => n.endsWith('.js'))) {
      const code = readFileSync(join(publicDir, 'assets', name), 'utf8');
      for (const [, path] of code.matchAll(/(?:from|import)\s*\(?\s*"(\/assets\/[^"]+)"/g))
        expect(existsSync(join(publicDir, path)), `${name} -> ${path}`).toBe(true);
    }
  });

  test('emits minified ES modules in production mode', () => {
    const entry = read(manifest.entry);
    expect(entry).toMatch(/\bimport\b/);
    expect(entry).not.toContain('DEVELOPMENT-ONLY-MARKER');
    expect(entry).not.toContain('process.env');
    expect(entry.split('\n').length).toBeLessThanOrEqual(3);
  });

  test('resolves react, react-dom and @preact/signals-react to Preact through the shared alias list', () => {
    const meta = JSON.parse(readFileSync(join(project.root, 'dist/meta.json'), 'utf8')) as { inputs: Record<string, unknown> };
    const inputs = Object.keys(meta.inputs);
    expect(inputs.some((i) => i.includes('node_modules/preact/compat/'))).toBe(true);
    expect(inputs.some((i) => i.includes('node_modules/@preact/signals/'))).toBe(true);
    expect(inputs.some((i) => i.includes('node_modules/react/') || i.includes('node_modules/react-dom/'))).toBe(false);
  });

  test("links only the first-screen sheet; the app sheet has every stylesheet, the areas' too", () => {
    const first = read(manifest.css[0]);
    expect(first).toContain('body{color:#639}');
    expect(first).not.toContain('.area');
    const app = read(manifest.appCss);
    for (const rule of ['body{color:#639}', '.area{padding:1rem}', '.second{margin:2rem}']) expect(app).toContain(rule);
    // No script loads a stylesheet of its own any more.
    expect(assets.filter((n) => n.endsWith('.css'))).toHaveLength(2);
  });

  test('writes source maps as separate files, not named inside the code (the gateway sends a SourceMap header)', () => {
    for (const name of assets.filter((n) => n.endsWith('.js') || (n.startsWith('app-') && n.endsWith('.css')))) {
      expect(assets, name).toContain(`${name}.map`);
      expect(readFileSync(join(publicDir, 'assets', name), 'utf8')).not.toContain('sourceMappingURL');
      expect(JSON.parse(readFileSync(join(publicDir, 'assets', `${name}.map`), 'utf8')).file).toBe(name);
    }
  });

  test('writes .br and .gz beside every text asset, decoding to the same bytes', () => {
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

  test('generates index.html with the hashed names, the dictionary preload, no inline script and the instance placeholders', () => {
    const html = read('/index.html');
    expect(html).toContain(`<script type="module" src="${manifest.entry}"></script>`);
    expect(html).not.toContain(manifest.appCss);
    for (const href of manifest.css) expect(html).toContain(`<link rel="stylesheet" href="${href}">`);
    expect(html).not.toContain('modulepreload');
    expect(html).toContain('<link rel="preload" href="/assets/i18n/%LANG%.json" as="fetch" crossorigin="anonymous">');
    for (const script of html.match(/<script\b[^>]*>[\s\S]*?<\/script>/g) ?? []) expect(script).toMatch(/^<script type="module" src="[^"]+"><\/script>$/);
    expect(html).not.toMatch(/\sstyle=|<style/);
    expect(html).toContain('<title>%APP_TITLE%</title>');
    expect(html).toContain('<meta name="app-title" content="%APP_TITLE%">');
    expect(html).toContain('<div id="app"></div>');
  });

  test('copies the locale files to assets/i18n, minified', () => {
    expect(read('/assets/i18n/de.json')).toBe('{"login":{"title":"Anmelden"}}');
    expect(JSON.parse(read('/assets/i18n/en.json'))).toEqual({ login: { title: 'Sign in' } });
  });

  test('copies static/ to the root of the public folder', () => {
    expect(read('/internet-explorer-msg.html')).toContain('alt');
  });

  test('--if-needed: nothing to do right after a build, a changed source needs one', () => {
    expect(needsBuild({ root: project.root })).toBe(false);
    const later = new Date(Date.now() + 5000);
    utimesSync(join(project.root, 'client/shared.ts'), later, later);
    expect(needsBuild({ root: project.root })).toBe(true);
  });

  test('says clearly when the entry does not exist', async () => {
    await expect(build({ root: project.root, entry: join(project.root, 'client/missing.tsx'), outDir: join(project.root, 'other') })).rejects.toThrow(
      /client\/missing\.tsx does not exist yet/,
    );
    expect(existsSync(join(project.root, 'other/public'))).toBe(false);
  });
});

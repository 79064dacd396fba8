import { test as baseTest, describe, expect } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import postcss, { type Container, type Rule } from 'postcss';
import { build, type BuildManifest } from '../../../scripts/build.ts';
import { FIRST_SCREEN_SECTIONS } from '../../../scripts/build-texts.ts';
import { isHashedAsset } from '../../../server/static-files.ts';
import { REPO_ROOT } from '../../helpers/gateway-fixtures.ts';
import { AREA_NAMES } from '../../../client/areas.ts';

// The real client as npm test builds it (built here when missing): what the gateway will serve.
const dist = join(REPO_ROOT, 'dist');
const publicDir = join(dist, 'public');
const test = baseTest.extend('manifest', { scope: 'file' }, async () => {
  if (!existsSync(join(dist, 'build-manifest.json'))) await build();
  return JSON.parse(readFileSync(join(dist, 'build-manifest.json'), 'utf8')) as BuildManifest;
});
// A missing build is made here, with a hook's time rather than the first test's.
test.beforeAll(({ manifest: _ }) => {}, 120_000);

const read = (url: string) => readFileSync(join(publicDir, url), 'utf8');

describe('the built client', () => {
  test('every file served as immutable is written exactly as esbuild named it after its content', () => {
    const meta = JSON.parse(readFileSync(join(dist, 'meta.json'), 'utf8')) as { outputs: Record<string, { bytes: number }> };
    const written = new Map(Object.entries(meta.outputs).map(([key, output]) => [key.split('/').pop(), output.bytes]));
    const immutable = readdirSync(join(publicDir, 'assets')).filter((name) => isHashedAsset(`/assets/${name}`));
    expect(immutable.length).toBeGreaterThan(15);
    for (const name of immutable) expect(readFileSync(join(publicDir, 'assets', name)).length, name).toBe(written.get(name));
  });

  test('loads every area of the area table as its own script plus the chunks it imports, never those of the first screen', ({ manifest }) => {
    const names = [...AREA_NAMES, 'app'];
    expect(names.length).toBeGreaterThan(10);
    expect(Object.keys(manifest.areas)).toEqual(expect.arrayContaining(names));
    const firstScreen = [manifest.entry, ...manifest.preload];
    for (const name of names) {
      expect(manifest.areas[name][0], name).toMatch(new RegExp(`^/assets/${name}-[A-Z2-7]{8}\\.js$`));
      expect(
        manifest.areas[name].filter((url) => firstScreen.includes(url)),
        name,
      ).toEqual([]);
    }
  });

  test('the first-screen sheet is the app sheet cut down: each of its rules comes again, in order, in the app sheet', ({ manifest }) => {
    const first = postcss.parse(read(manifest.css[0]));
    const app = postcss.parse(read(manifest.appCss));
    const flat = (root: Container) => {
      const rules: { where: string; selectors: string[]; declarations: string[] }[] = [];
      root.walkRules((rule: Rule) => {
        if (rule.parent?.type === 'atrule' && /keyframes$/.test((rule.parent as { name: string }).name)) return;
        const where =
          rule.parent?.type === 'atrule' ? `@${(rule.parent as { name: string; params: string }).name} ${(rule.parent as { params: string }).params}` : '';
        rules.push({ where, selectors: rule.selectors, declarations: rule.nodes.filter((n) => n.type === 'decl').map((d) => d.toString()) });
      });
      return rules;
    };
    const later = flat(app);
    let at = 0;
    for (const rule of flat(first)) {
      const found = later.findIndex(
        (candidate, i) => i >= at && candidate.where === rule.where && rule.declarations.every((d) => candidate.declarations.includes(d)),
      );
      expect(found, `${rule.where} ${rule.selectors.join(',')}`).toBeGreaterThanOrEqual(0);
      at = found + 1;
    }
  });
  test('the first-screen dictionary holds exactly the sections the first-screen scripts read; every other text comes with the areas', ({ manifest }) => {
    const source = JSON.parse(readFileSync(join(REPO_ROOT, 'locales/de.json'), 'utf8')) as Record<string, unknown>;
    const firstScreen = JSON.parse(read('/assets/i18n/de.json')) as Record<string, unknown>;
    const app = JSON.parse(read('/assets/i18n/app/de.json')) as Record<string, unknown>;
    expect({ ...firstScreen, ...app }).toEqual(source);
    expect(Object.keys(firstScreen).filter((section) => section in app)).toEqual([]);
    // A section is read where its name stands at the start of a key literal ("login.title", `dashboard.${x}`).
    const entry = [manifest.entry, ...manifest.preload].map(read).join('\n');
    const readByEntry = Object.keys(source).filter((section) => new RegExp(`["'\`]${section}\\.`).test(entry));
    expect(readByEntry.length).toBeGreaterThan(3);
    expect(readByEntry.filter((section) => !FIRST_SCREEN_SECTIONS.includes(section))).toEqual([]);
  });
});

import { describe, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { precompress } from '../../../scripts/build-output.ts';
import { LIMIT_BYTES, measureFirstScreen } from '../../../scripts/size.ts';
import { builtProjectTest } from '../../helpers/gateway-build-fixture.ts';
import { NODE_BIN, REPO_ROOT } from '../../helpers/gateway-fixtures.ts';

const test = builtProjectTest
  .extend('dist', { scope: 'file' }, ({ project, manifest: _ }) => join(project.root, 'dist'))
  .extend(
    'runSize',
    { scope: 'file' },
    ({ dist }) =>
      () =>
        spawnSync(NODE_BIN, [join(REPO_ROOT, 'scripts/size.ts'), dist], { encoding: 'utf8', timeout: 20_000 }),
  );
// The build starts here, with a hook's time rather than the first test's.
test.beforeAll(({ manifest: _ }) => {}, 60_000);

describe('npm run size', () => {
  test('counts the page, the linked CSS, the entry with its static imports and the German dictionary, in brotli bytes', ({ manifest, dist }) => {
    const report = measureFirstScreen(dist);
    const paths = report.files.map((f) => f.path);
    expect(paths).toEqual(['/login (index.html)', ...manifest.css, ...manifest.preload, manifest.entry, '/assets/i18n/de.json']);
    const publicDir = join(dist, 'public');
    expect(report.files.find((f) => f.path === manifest.entry)!.bytes).toBe(statSync(join(publicDir, `${manifest.entry}.br`)).size);
    expect(report.total).toBe(report.files.reduce((sum, f) => sum + f.bytes, 0));
    expect(report.limit).toBe(30 * 1024);
    expect(report.ok).toBe(true);
  });

  test('leaves the areas, the app module and the app stylesheet out', ({ manifest, dist }) => {
    const report = measureFirstScreen(dist);
    const later = [...Object.values(manifest.areas).flat(), manifest.appCss];
    expect(later.length).toBeGreaterThan(3);
    for (const path of later) expect(report.files.map((f) => f.path)).not.toContain(path);
  });

  test('prints the breakdown per file and exits 0 within budget', ({ manifest, runSize }) => {
    const result = runSize();
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(manifest.entry);
    expect(result.stdout).toContain('/assets/i18n/de.json');
    expect(result.stdout).toMatch(/total\s+\d+ B/);
  });

  test('fails above 30 KB', async ({ dist, runSize }) => {
    // An incompressible German dictionary of over 30 KB pushes the first screen over the limit.
    writeFileSync(join(dist, 'public/assets/i18n/de.json'), JSON.stringify({ x: randomBytes(LIMIT_BYTES).toString('base64') }));
    await precompress(join(dist, 'public'));
    expect(measureFirstScreen(dist).ok).toBe(false);
    const result = runSize();
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('OVER BUDGET');
  });
});

// npm test builds the real client before vitest runs, so the budget is enforced on every CI run.
describe.skipIf(!existsSync(join(REPO_ROOT, 'dist/build-manifest.json')))('the real client', () => {
  test('keeps the first screen of /login within 30 KB (brotli)', () => {
    const report = measureFirstScreen(join(REPO_ROOT, 'dist'));
    expect(report.total, report.files.map((f) => `${f.path} ${f.bytes}`).join('\n')).toBeLessThanOrEqual(30 * 1024);
  });
});

import { expect, test } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

// happy-dom has no layout, so these pin the rules that keep the page as wide as the window; the browser
// tour (test/e2e) measures the result. vitest runs from the repository root.
const app = readFileSync('client/styles/app.css', 'utf8');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx$/.test(entry.name) && !/\.test\.tsx$/.test(entry.name) ? [path] : [];
  });
}

test('the scroll box for wide tables is defined in the global stylesheet, which every screen has loaded', () => {
  const rule = /\.table-scroll\s*\{([^}]*)\}/.exec(app)?.[1] ?? '';
  expect(rule).toMatch(/overflow-x:\s*auto/);
  expect(rule).toMatch(/max-width:\s*100%/);
  expect(rule).toMatch(/position:\s*relative/);
});

test('every table a screen renders sits in a scroll box', () => {
  const files = sourceFiles('client').filter((file) => readFileSync(file, 'utf8').includes('<table'));
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    expect(source.split('<table').length - 1, `${file}: tables vs. scroll boxes`).toBeLessThanOrEqual(source.split('table-scroll').length - 1);
  }
});

test('tab bars in the page wrap instead of running off a phone screen', () => {
  expect(app).toMatch(/:where\(\.shell-content nav\) ul\s*\{\s*flex-wrap:\s*wrap/);
});

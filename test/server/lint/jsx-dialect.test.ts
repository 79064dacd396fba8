import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';

// The lint rule (lint/react-jsx-dialect.grit) that keeps the client in React's JSX dialect, run through Biome as
// `npm run lint` runs it: a Preact-only attribute is an error, React's names and data-/aria- attributes pass.
const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIOME = join(ROOT, 'node_modules', '.bin', 'biome');

// Biome lints only files under the project's root, so the probes are written to a scratch folder inside it.
const PROBES = mkdtempSync(join(ROOT, 'test', 'lint-probe-'));
afterAll(() => rmSync(PROBES, { recursive: true, force: true }));
let probes = 0;

function lint(source: string): { failed: boolean; output: string } {
  const file = join(PROBES, `Example${++probes}.tsx`);
  writeFileSync(file, source);
  const run = spawnSync(BIOME, ['lint', '--colors=off', relative(ROOT, file)], { cwd: ROOT, encoding: 'utf8' });
  return { failed: run.status !== 0, output: `${run.stdout}${run.stderr}` };
}

describe("the lint rule for React's JSX dialect", () => {
  test.each([
    ['class', '<div class="card" />'],
    ['for', '<label for="email">E-Mail</label>'],
    ['stroke-width', '<svg><path stroke-width="2" d="M0 0" /></svg>'],
    ['tabindex', '<div tabindex={0} />'],
    ['readonly', '<input readonly />'],
    ['maxlength', '<input maxlength={5} />'],
  ])('rejects the Preact-only attribute %s', (name, jsx) => {
    const { failed, output } = lint(`export const Example = () => ${jsx};\n`);
    expect(failed, output).toBe(true);
    expect(output).toContain("Write React's attribute name here");
    expect(output).toContain(name);
  });

  test("accepts React's names and data-/aria- attributes", () => {
    const source = [
      'export const Example = () => (',
      '  <label htmlFor="email" className="field" data-testid="x">',
      '    <svg viewBox="0 0 1 1" aria-hidden="true"><path strokeWidth="2" d="M0 0" /></svg>',
      '    <input id="email" readOnly maxLength={5} tabIndex={0} aria-label="E-Mail" />',
      '  </label>',
      ');',
      '',
    ].join('\n');
    const { failed, output } = lint(source);
    expect(failed, output).toBe(false);
  });

  test('biome is the pinned one from node_modules', () => {
    expect(execFileSync(BIOME, ['--version'], { encoding: 'utf8' })).toMatch(/^Version: 2\./);
  });
});

import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { npm, scratchCopy } from '../../helpers/scratch-copy.ts';
import { REPO_ROOT } from '../../helpers/gateway-fixtures.ts';

/*
 * `npm test` is the gate every change passes: it must run every step, stop at the first one that fails, and each
 * step must fail on the kind of defect it is there to catch. The first is read from package.json (the steps are one
 * `&&` chain); the second is shown by running each step alone in one scratch copy of the repository that holds one
 * defect per step, each named in that step's output. Running the whole suite once per defect would prove no more.
 */

/** The steps of `npm test`, in order: the checks, the build, then the three test tiers (test/README.md). */
const STEPS = ['lint', 'format:check', 'typecheck', 'check:locales', 'build', 'test:unit', 'test:e2e', 'test:slow'];

const scripts = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

describe('npm test (package.json)', () => {
  test('is one && chain of every step, in order, so it stops at the first that fails', () => {
    expect(scripts.test.split(' && ')).toEqual(STEPS.map((step) => `npm run ${step}`));
  });

  test('each tier builds the client when it is missing or stale, then runs its vitest projects', () => {
    for (const tier of ['test:unit', 'test:e2e', 'test:slow'])
      expect(scripts[tier], tier).toMatch(/^node scripts\/build\.ts --if-needed && vitest run( --project [\w-]+)+$/);
  });
});

/** The first text of the first section of locales/en.json, removed from the copy: a key English misses. */
function dropEnglishKey(dir: string): string {
  const file = join(dir, 'locales/en.json');
  const tree = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>;
  const [section, texts] = Object.entries(tree).find(([, value]) => typeof value === 'object')!;
  const [key] = Object.entries(texts).find(([, value]) => typeof value === 'string')!;
  delete texts[key];
  writeFileSync(file, `${JSON.stringify(tree, null, 2)}\n`);
  return `${section}.${key}`;
}

const probe = (path: string, text: string) => (dir: string) => {
  writeFileSync(join(dir, path), text);
  return path;
};

/** A test file that fails, with the title the tier's output must name. */
const failingTest = (path: string) => (dir: string) => {
  const title = `the gate probe in ${path} fails on purpose`;
  probe(path, `import { expect, test } from 'vitest';\n\ntest('${title}', () => {\n  expect(1 + 1).toBe(3);\n});\n`)(dir);
  return title;
};

interface Defect {
  /** The step that must catch it. */
  step: string;
  /** Writes the defect into the copy; returns what the step's output must name (a file, a key, a test). */
  inject: (dir: string) => string;
  /** The test file the tier is given, so the tier runs the probe alone. */
  testFile?: string;
}

// Each defect is well formed for every other step (formatted, type-correct, and so on), so each case shows its own
// step at work; together the probes leave the build untouched (nothing imports them).
const DEFECTS: Record<string, Defect> = {
  'a Preact-only class= attribute': { step: 'lint', inject: probe('client/gate-probe-lint.tsx', 'export const GateProbe = () => <div class="probe" />;\n') },
  'an unformatted file': { step: 'format:check', inject: probe('client/gate-probe-format.ts', 'export const gateProbe = {a:1};\n') },
  'a type error': { step: 'typecheck', inject: probe('client/gate-probe-type.ts', 'export const gateProbe: number = String(1);\n') },
  'a key that English misses': { step: 'check:locales', inject: dropEnglishKey },
  'a failing unit test': { step: 'test:unit', inject: failingTest('test/server/gate-probe.test.ts'), testFile: 'test/server/gate-probe.test.ts' },
  'a failing browser journey file': { step: 'test:e2e', inject: failingTest('test/e2e/gate-probe.test.ts'), testFile: 'test/e2e/gate-probe.test.ts' },
  'a failing slow test': { step: 'test:slow', inject: failingTest('test/server/gate-probe.slow.test.ts'), testFile: 'test/server/gate-probe.slow.test.ts' },
};

// Slow (a scratch copy, one client build and each step once, one after the other): in the slow tier, alone.
describe('each step of npm test on a copy of the repository (slow)', () => {
  let dir: string;
  const named = new Map<string, string>();
  beforeAll(async () => {
    dir = scratchCopy();
    // The clean copy passes every check and builds: a step that fails below fails on its defect. One after the
    // other: side by side they finished sooner alone, but in the tier beside the Docker reproduction's npm install
    // they made the tier longer (slow-builds 41 -> 55 s in fresh-clone runs).
    for (const step of ['lint', 'format:check', 'typecheck', 'check:locales', 'build']) {
      const run = await npm(dir, ['run', step]);
      expect(run.code, `${step} on the clean copy:\n${run.output}`).toBe(0);
    }
    for (const [name, defect] of Object.entries(DEFECTS)) named.set(name, defect.inject(dir));
    // Nothing imports the probes, so the build is what it was; its stamp says so, or the first tier below would
    // build again.
    const stamp = join(dir, 'dist/build-manifest.json');
    utimesSync(stamp, new Date(), new Date());
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test.for(Object.entries(DEFECTS))('fails on %s', { timeout: 180_000 }, async ([name, defect]) => {
    const run = await npm(dir, ['run', defect.step, ...(defect.testFile ? ['--', defect.testFile] : [])]);
    expect(run.code, run.output).not.toBe(0);
    expect(run.output).toContain(named.get(name));
    // The tiers run on the one build (see beforeAll), none builds it again.
    if (defect.testFile) expect(run.output).toContain('build: dist is up to date');
  });

  test('npm test stops at the first step that fails', async () => {
    const run = await npm(dir, ['test']);
    expect(run.code, run.output).not.toBe(0);
    expect(run.output).toContain(named.get('a Preact-only class= attribute'));
    expect(run.output).not.toMatch(/> \S+ format:check/);
  }, 60_000);
});

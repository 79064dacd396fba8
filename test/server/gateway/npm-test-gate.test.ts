import { describe, expect, test } from 'vitest';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { npm, scratchCopy } from '../../helpers/scratch-copy.ts';

/*
 * `npm test` is the gate every change passes: it must fail on each kind of defect it is there to catch, and let a
 * clean checkout through. Tested by running it, in scratch copies of the repository with one defect each.
 */

/** A small test file that passes: `npm test -- <it>` runs the whole gate, then only this file. */
const SMALL_TEST = 'test/server/upstream/config.test.ts';

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

interface Defect {
  /** Writes the defect into the copy; returns what the gate's output must name (a file, a key, a test). */
  inject: (dir: string) => string;
  /** The test file `npm test --` is given. */
  testFile?: string;
}

const probe = (path: string, text: string) => (dir: string) => {
  writeFileSync(join(dir, path), text);
  return path;
};

// Each defect is caught by exactly one step of the gate (it is well formatted, type-correct, and so on), so each
// case fails when its step is dropped from `npm test`.
const DEFECTS: Record<string, Defect> = {
  'a failing test file': {
    inject: (dir) => {
      const title = 'the gate probe fails on purpose';
      probe('test/server/gate-probe.test.ts', `import { expect, test } from 'vitest';\n\ntest('${title}', () => {\n  expect(1 + 1).toBe(3);\n});\n`)(dir);
      return title;
    },
    testFile: 'test/server/gate-probe.test.ts',
  },
  'a key that English misses': { inject: dropEnglishKey },
  'a type error': { inject: probe('client/gate-probe.ts', 'export const gateProbe: number = String(1);\n') },
  'an unformatted file': { inject: probe('client/gate-probe.ts', 'export const gateProbe = {a:1};\n') },
  'a Preact-only class= attribute (lint)': { inject: probe('client/gate-probe.tsx', 'export const GateProbe = () => <div class="probe" />;\n') },
};

// Slow (about 65 s on a 2-core machine: every case runs `npm test` for real, in its own scratch copy). One after
// the other, not side by side: six concurrent builds would starve the browser journeys that run beside this file.
describe('npm test on a copy of the repository (slow)', () => {
  test('passes a clean copy (the gate lets good code through)', async () => {
    const dir = scratchCopy();
    try {
      const run = await npm(dir, ['test', '--', SMALL_TEST]);
      expect(run.code, run.output).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);

  test.for(Object.entries(DEFECTS))('fails on %s', { timeout: 300_000 }, async ([, defect]) => {
    const dir = scratchCopy();
    try {
      const named = defect.inject(dir);
      const run = await npm(dir, ['test', '--', defect.testFile ?? SMALL_TEST]);
      expect(run.code, run.output).not.toBe(0);
      expect(run.output).toContain(named);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

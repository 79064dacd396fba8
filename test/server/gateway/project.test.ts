import { describe, expect, test } from 'vitest';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { REPO_ROOT } from '../../helpers/gateway-fixtures.ts';
import { DEMO_PASSWORD, Session } from '../../helpers/gateway-stack.ts';

const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield full;
  }
}

const packageName = (specifier: string) => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]);

describe('the project', () => {
  test('pins Node 24 as a devDependency', () => {
    expect(pkg.devDependencies.node).toMatch(/^\^?24\./);
  });

  test('everything the server imports at run time is a production dependency (the image has no dev dependencies)', () => {
    const roots = [join(REPO_ROOT, 'server'), join(REPO_ROOT, 'client/api/schemas')];
    const problems: string[] = [];
    for (const root of roots) {
      for (const file of sourceFiles(root)) {
        const text = readFileSync(file, 'utf8');
        for (const [, kind, specifier] of text.matchAll(/^\s*(import|export)(?!\s+type\b)[^'"]*?from\s+'([^'.][^']*)'/gm)) {
          void kind;
          if (specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
          const name = packageName(specifier);
          if (!pkg.dependencies[name]) problems.push(`${relative(REPO_ROOT, file)} imports ${name}`);
        }
        for (const [, specifier] of text.matchAll(/import\(\s*'([^'.][^']*)'\s*\)/g)) {
          const name = packageName(specifier);
          if (!specifier.startsWith('node:') && !pkg.dependencies[name]) problems.push(`${relative(REPO_ROOT, file)} imports ${name}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('.ci/run', () => {
  const script = readFileSync(join(REPO_ROOT, '.ci/run'), 'utf8');

  test('is an executable bash script that stops on the first error', () => {
    expect(statSync(join(REPO_ROOT, '.ci/run')).mode & 0o111).not.toBe(0);
    expect(script.startsWith('#!/usr/bin/env bash\n')).toBe(true);
    expect(script).toMatch(/^set -euo pipefail$/m);
    expect(spawnSync('bash', ['-n', join(REPO_ROOT, '.ci/run')]).status).toBe(0);
  });

  test('installs Chromium when missing, then runs npm ci and the README test command, in that order', () => {
    const chromium = script.indexOf('apt-get install -y --no-install-recommends chromium');
    const ci = script.indexOf('\nnpm ci');
    const npmTest = script.indexOf('\nnpm test');
    expect(script).toContain('if [ ! -x /usr/bin/chromium ]');
    expect(chromium).toBeGreaterThan(0);
    expect(ci).toBeGreaterThan(chromium);
    expect(npmTest).toBeGreaterThan(ci);
    expect(script).not.toMatch(/read\s|--interactive/);
  });
});

/**
 * A scratch copy of the repository as a fresh checkout has it: the tracked files as they are in the work tree
 * (so no dist/, data/ or test-artifacts/, and none of the probe files other tests write into the repository
 * while they run), with every installed package linked in. The links are per package, not one link for the
 * whole folder, so what tools cache in node_modules (vitest's .vite) stays in the copy.
 */
function scratchCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'project-copy-'));
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\0');
  for (const path of tracked.filter((p) => p && existsSync(join(REPO_ROOT, p)))) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    copyFileSync(join(REPO_ROOT, path), join(dir, path));
  }
  mkdirSync(join(dir, 'node_modules'));
  for (const entry of readdirSync(join(REPO_ROOT, 'node_modules'))) {
    if (entry !== '.vite' && entry !== '.cache') symlinkSync(join(REPO_ROOT, 'node_modules', entry), join(dir, 'node_modules', entry));
  }
  return dir;
}

/** The environment of a fresh shell: nothing of this vitest run (VITEST_*, NODE_ENV=test, npm_*) reaches the copy. */
const shellEnv = (extra: Record<string, string> = {}) => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...extra });

/** Runs npm in the copy; resolves with its exit code and everything it printed. */
function npm(cwd: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd, env: shellEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output: stripVTControlCharacters(output) }));
  });
}

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
// case fails when its step is dropped from `npm test`. Listed heaviest first: the cases run side by side, five at a
// time (vitest's maxConcurrency), and the quick ones fill the last slot.
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

// Slow (30 to 60 s on a 2-core machine: every case runs `npm test` for real, in its own scratch copy, side by side).
describe.concurrent('npm test on a copy of the repository (slow)', () => {
  test('passes a clean copy (the gate lets good code through)', async ({ expect }) => {
    const dir = scratchCopy();
    try {
      const run = await npm(dir, ['test', '--', SMALL_TEST]);
      expect(run.code, run.output).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);

  test.for(Object.entries(DEFECTS))('fails on %s', { timeout: 300_000 }, async ([, defect], { expect }) => {
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

// Slow (about 10 s: a client build and the gateway with its built-in upstream).
describe('npm start on a fresh checkout (slow)', () => {
  test('builds the client, starts the gateway on the built-in upstream and signs in a demo account', async () => {
    const dir = scratchCopy();
    expect(existsSync(join(dir, 'dist'))).toBe(false);
    // Its own process group, so the gateway and the upstream it forks stop with npm.
    const child = spawn('npm', ['start'], {
      cwd: dir,
      env: shellEnv({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: join(dir, 'data') }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      // The gateway's JSON log line "gateway listening" carries the port it got.
      const port = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the gateway did not listen within 90 s\n${output}`)), 90_000);
        let stdout = '';
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          stdout += chunk.toString();
          const complete = stdout.split('\n').slice(0, -1);
          for (const line of complete.filter((l) => l.startsWith('{'))) {
            const entry = JSON.parse(line) as { msg?: string; port?: number };
            if (entry.msg === 'gateway listening' && typeof entry.port === 'number') {
              clearTimeout(timer);
              resolve(entry.port);
            }
          }
        });
        void exited.then((code) => {
          clearTimeout(timer);
          reject(new Error(`npm start exited (${code}) before the gateway listened\n${output}`));
        });
      });
      const base = `http://127.0.0.1:${port}`;

      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const page = await fetch(`${base}/login`);
      expect(page.status).toBe(200);
      const entry = /<script type="module" src="([^"]+)"/.exec(await page.text())?.[1];
      expect(entry, 'the page has a module script').toBeDefined();
      const script = await fetch(`${base}${entry}`);
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toMatch(/javascript/);

      // The demo accounts of docs/contract.md#demo-accounts exist: the coach signs in and sees their patients.
      const session = new Session(base);
      const coach = await session.login('coach@example.org', DEMO_PASSWORD);
      expect(coach).toMatchObject({ email: 'coach@example.org' });
      const patients = await session.fetch(`/v2/coaches/${coach.id}/patients`);
      expect(patients.status).toBe(200);
      expect(((await patients.json()) as unknown[]).length).toBeGreaterThan(0);
    } finally {
      await stopGroup(child.pid!, exited);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});

/** SIGTERM to the process group npm leads, then waits until none of it is left (SIGKILL after 15 s). */
async function stopGroup(pid: number, exited: Promise<unknown>): Promise<void> {
  const alive = () => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (alive()) process.kill(-pid, 'SIGTERM');
  await exited;
  for (let waited = 0; alive() && waited < 15_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  if (alive()) process.kill(-pid, 'SIGKILL');
}
